package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.priodp.aggregator.service.HelperServer;
import org.priodp.aggregator.store.JdbcAggregateShareStore;
import org.priodp.aggregator.task.TaskDefinition;
import org.priodp.aggregator.task.TaskFile;
import org.priodp.noise.RandomSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Runs the DAP-18 Helper aggregate-share endpoint for the tasks of a JSON file until stopped. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Serves DAP-18 aggregate shares (POST /tasks/{task-id}/aggregate_shares, GET and DELETE on",
      "the Location, GET /healthz) for the tasks in --config, noising each batch exactly once",
      "and persisting it before it is released. Stops gracefully on SIGTERM or Ctrl-C.",
      "Example: prio-dp serve --config tasks.json --port 8080 --db jdbc:sqlite:helper.db"
    })
public final class ServeCommand implements PrioDpSubcommand {
  @Spec CommandSpec spec;

  @Option(names = "--config", paramLabel = "FILE", required = true,
      description = "The task file (JSON; see docs/DAP.md).")
  Path config;

  @Option(names = "--port", paramLabel = "N", defaultValue = "8080",
      description = "TCP port (0 picks a free one; default ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
      description = "Address to listen on (default ${DEFAULT-VALUE}).")
  String bind;

  @Option(names = "--db", paramLabel = "URL", defaultValue = "jdbc:sqlite:priodp-helper.db",
      description = "JDBC URL of the store: jdbc:sqlite:FILE (default ${DEFAULT-VALUE}) or"
          + " jdbc:postgresql://...")
  String db;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port: must be in [0, 65535]");
    }
    List<TaskDefinition> tasks = TaskFile.read(config);
    JdbcAggregateShareStore store = JdbcAggregateShareStore.open(db);
    HelperServer server = new HelperServer(tasks, store, RandomSource.secure());
    int bound;
    try {
      bound = server.start(bind, port);
    } catch (RuntimeException e) {
      store.close();
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      server.stop();
      store.close();
      stopped.countDown();
    }, "prio-dp-serve-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    PrintWriter out = spec.commandLine().getOut();
    out.println("prio-dp serve: " + tasks.size() + " task(s), listening on http://" + bind + ":"
        + bound);
    out.flush();
    stopped.await();
    return 0;
  }
}
