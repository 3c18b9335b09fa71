package org.priodp.aggregator.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code prio-dp serve} child process on this test's class path, for tests that need a real
 * process (SIGKILL, SIGTERM, several replicas): started with its stderr appended to a log file,
 * and its port read from the "listening on http://127.0.0.1:PORT" line it prints.
 */
public final class ServeProcess {
  private static final Pattern LISTENING =
      Pattern.compile("listening on https?://127\\.0\\.0\\.1:(\\d+)");

  private ServeProcess() {
  }

  /** Starts {@code serve --config config --port 0 --db db} plus {@code extra} arguments. */
  public static Process start(Path config, String db, Path log, List<String> jvmFlags,
      String... extra) throws java.io.IOException {
    return start(config, db, log, 0, jvmFlags, extra);
  }

  /** Starts {@code serve --config config --port port --db db} plus {@code extra} arguments. */
  public static Process start(Path config, String db, Path log, int port, List<String> jvmFlags,
      String... extra) throws java.io.IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-cp", System.getProperty("java.class.path"), "-XX:+UseSerialGC",
        "-Xmx256m"));
    cmd.addAll(jvmFlags);
    cmd.addAll(List.of("org.priodp.aggregator.cli.PrioDp", "serve", "--config",
        config.toString(), "--port", String.valueOf(port), "--db", db));
    cmd.addAll(List.of(extra));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    return pb.start();
  }

  /**
   * Starts {@code prio-dp ARGS} (any command, e.g. {@code interop-client --port 0}) with its
   * stderr appended to {@code log}.
   */
  public static Process startCommand(Path log, List<String> args) throws java.io.IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-cp", System.getProperty("java.class.path"), "-XX:+UseSerialGC",
        "-Xmx256m", "org.priodp.aggregator.cli.PrioDp"));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().keySet().removeIf(k -> k.startsWith("PRIODP_"));
    pb.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    return pb.start();
  }

  /** Reads the process's stdout until it says where it listens (60 s at most); returns the port. */
  public static int awaitPort(Process p) throws Exception {
    return awaitPort(p, new ArrayList<>());
  }

  /**
   * Reads the process's stdout until it says where it listens (60 s at most), adding each line
   * read to {@code lines}; returns the port.
   */
  public static int awaitPort(Process p, List<String> lines) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
        StandardCharsets.UTF_8));
    String line = CompletableFuture.supplyAsync(() -> {
      try {
        for (String l = r.readLine(); l != null; l = r.readLine()) {
          lines.add(l);
          if (LISTENING.matcher(l).find()) {
            return l;
          }
        }
        return null;
      } catch (java.io.IOException e) {
        return null;
      }
    }).get(60, TimeUnit.SECONDS);
    Matcher m = LISTENING.matcher(String.valueOf(line));
    assertTrue(m.find(), "server did not start: " + line);
    return Integer.parseInt(m.group(1));
  }

  /** Sends SIGTERM and waits up to 20 s, then SIGKILL. */
  public static void stop(Process p) throws InterruptedException {
    p.destroy();
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
