package org.priodp.aggregator.cli;

import java.net.http.HttpClient;
import java.security.SecureRandom;
import org.priodp.aggregator.interop.ClientInteropApi;
import org.priodp.aggregator.interop.InteropApi;
import picocli.CommandLine.Command;

/**
 * Serves the Client's interoperation test API (draft-dcook-ppm-dap-interop-test-design,
 * "Client": {@code /internal/test/ready} and {@code /internal/test/upload}), uploading each
 * measurement as a DAP-18 report with {@link org.priodp.aggregator.client.DapClient}.
 */
@Command(
    name = "interop-client",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Serves the Client's interop test API (testing only, unauthenticated).",
      "",
      "The Client container of draft-dcook-ppm-dap-interop-test-design: POST"
          + " /internal/test/ready and /internal/test/upload (JSON; binary values base64url)."
          + " Each upload shards one measurement, seals it to both aggregators and uploads the"
          + " report to the Leader. Besides the draft's fields, an upload must carry"
          + " min_batch_size and batch_mode (DAP-18 seals every share over the whole task"
          + " configuration) and the task_info the aggregators got, if any. See docs/DAP.md,"
          + " \"The interop test API\".",
      "",
      "Anyone who reaches the port can make it upload: run it only in a test network."
    },
    footer = {
      "%nExample:",
      "  prio-dp interop-client --bind 0.0.0.0 --port 8080",
      "  curl -s -X POST localhost:8080/internal/test/upload -d '{\"task_id\": \"...\","
          + " \"leader\": \"http://leader:8080/\", \"helper\": \"http://helper:8080/\","
          + " \"vdaf\": {\"type\": \"Prio3Count\"}, \"measurement\": \"1\","
          + " \"time_precision\": 3600, \"min_batch_size\": 10, \"batch_mode\": 1}'"
    })
public final class InteropClientCommand extends InteropRoleCommand {
  @Override
  String name() {
    return "interop-client";
  }

  @Override
  InteropApi api() {
    return new ClientInteropApi(HttpClient.newHttpClient(), new SecureRandom());
  }
}
