package org.priodp.aggregator.cli;

import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.priodp.aggregator.interop.CollectorInteropApi;
import org.priodp.aggregator.interop.InteropApi;
import picocli.CommandLine.Command;

/**
 * Serves the Collector's interoperation test API (draft-dcook-ppm-dap-interop-test-design,
 * "Collector": ready, add_task, collection_start, collection_poll), collecting with {@link
 * org.priodp.aggregator.client.DapCollector}.
 */
@Command(
    name = "interop-collector",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Serves the Collector's interop test API (testing only, unauthenticated).",
      "",
      "The Collector container of draft-dcook-ppm-dap-interop-test-design: POST"
          + " /internal/test/ready, add_task (generates the task's HPKE key pair and answers"
          + " collector_hpke_config), collection_start (answers a handle) and collection_poll"
          + " (\"in progress\", or \"complete\" with the result). Besides the draft's fields,"
          + " add_task must carry helper, time_precision and min_batch_size (DAP-18 seals every"
          + " share over the whole task configuration). Tasks and jobs live in memory. See"
          + " docs/DAP.md, \"The interop test API\".",
      "",
      "Anyone who reaches the port can add tasks and collect: run it only in a test network."
    },
    footer = {
      "%nExample:",
      "  prio-dp interop-collector --bind 0.0.0.0 --port 8080",
      "  curl -s -X POST localhost:8080/internal/test/add_task -d '{\"task_id\": \"...\","
          + " \"leader\": \"http://leader:8080/\", \"helper\": \"http://helper:8080/\","
          + " \"vdaf\": {\"type\": \"Prio3Count\"}, \"collector_authentication_token\": \"...\","
          + " \"batch_mode\": 1, \"time_precision\": 3600, \"min_batch_size\": 10}'"
    })
public final class InteropCollectorCommand extends InteropRoleCommand {
  private ExecutorService pool;

  @Override
  String name() {
    return "interop-collector";
  }

  @Override
  InteropApi api() {
    pool = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "priodp-interop-collect");
      t.setDaemon(true);
      return t;
    });
    return new CollectorInteropApi(HttpClient.newHttpClient(), new SecureRandom(), pool);
  }

  @Override
  void release() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
