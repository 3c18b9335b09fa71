package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import org.priodp.aggregator.interop.InteropApi;
import org.priodp.aggregator.interop.InteropHttpServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What {@code interop-client} and {@code interop-collector} share: serve one role's
 * interoperation test API (draft-dcook-ppm-dap-interop-test-design, "Container Interface") on
 * --bind:--port until SIGTERM or Ctrl-C, warning loudly on stdout and in the log that the API is
 * unauthenticated and for testing only.
 */
abstract class InteropRoleCommand implements PrioDpSubcommand {
  private static final Logger LOG = LoggerFactory.getLogger(InteropRoleCommand.class);

  @Spec CommandSpec spec;

  @Option(names = "--port", paramLabel = "N", defaultValue = "${env:PRIODP_PORT:-8080}",
      description = "TCP port (0 picks a free one; the harness expects 8080). [PRIODP_PORT]")
  String port;

  @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "${env:PRIODP_BIND:-127.0.0.1}",
      description = "Address to listen on (0.0.0.0 in a container). [PRIODP_BIND]")
  String bind;

  @Option(names = "--log-format", paramLabel = "FORMAT",
      defaultValue = "${env:PRIODP_LOG_FORMAT:-text}",
      description = "Log lines on stderr: text or json. [PRIODP_LOG_FORMAT]")
  String logFormat;

  /** Returns the command's name, e.g. "interop-client". */
  abstract String name();

  /** Builds the API of the role; {@link #release} frees what it started. */
  abstract InteropApi api();

  /** Releases what {@link #api()} started (after the server stopped). */
  void release() {
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    int p = ServeCommand.parsePort(port == null || port.isBlank() ? "8080" : port.strip());
    String address = bind == null || bind.isBlank() ? "127.0.0.1" : bind.strip();
    (logFormat == null || logFormat.isBlank() ? LogFormat.TEXT : LogFormat.parse(logFormat))
        .apply();
    if (PrioDp.isVerbose(spec.commandLine())) {
      LogFormat.verbose();
    }
    InteropApi api = api();
    InteropHttpServer server;
    try {
      server = InteropHttpServer.start(address, p, api);
    } catch (IOException e) {
      release();
      throw new CliIo.Failure(e.getMessage(), e);
    }
    LOG.warn("the UNAUTHENTICATED interop test API is enabled at {} ({}): anyone who reaches"
        + " this port can drive it; for interoperation tests only, never in production",
        InteropApi.PREFIX, String.join(", ", api.endpointNames()));
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      release();
      stop.countDown();
    }, "prio-dp-" + name() + "-shutdown"));
    PrintWriter out = spec.commandLine().getOut();
    out.println("prio-dp " + name() + ": WARNING: unauthenticated interop test API for testing"
        + " only, never expose it in production");
    out.println("prio-dp " + name() + ": listening on http://" + address + ":" + server.port());
    out.flush();
    stop.await();
    return 0;
  }
}
