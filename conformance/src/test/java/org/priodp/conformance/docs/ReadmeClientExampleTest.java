package org.priodp.conformance.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.cli.PrioDp;
import picocli.CommandLine;

/**
 * Compiles and runs the Client-and-Collector example of the README ("The DAP aggregator, one
 * artifact per role") with the Client artifact alone, against a Leader and a Helper, so the
 * example cannot rot. The task is made by the README's own {@code prio-dp task new} line (with
 * free loopback ports for the URLs); the Leader and the Helper are {@code prio-dp serve}
 * processes, each with its task file and SQLite store. The example compiles and runs in its own
 * JVM with a class path of prio-dp-client's runtime dependencies only (client, messages,
 * vdaf-adapter, field, noise, Bouncy Castle, Hipparchus: the tree that the client's
 * {@code src/it/client-only} check prints), with the values of collector.json as arguments as
 * the README says. It must collect the ten reports and print four estimates within 50
 * half-widths of the true counts 1, 2, 3, 4 (the 95% interval may miss by chance; 50 half-widths
 * of two discrete Laplace draws never does).
 */
class ReadmeClientExampleTest {
  private static final Pattern SECTION = Pattern.compile(
      "### The DAP aggregator, one artifact per role\\n(.*?)\\n## ", Pattern.DOTALL);
  private static final Pattern TASK_NEW = Pattern.compile("(?m)^prio-dp (task new .*)$");
  private static final Pattern JAVA = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern OUTPUT = Pattern.compile("(\\d+) reports: \\[(.*)] \\+- (\\d+)");
  private static final Pattern LISTENING = Pattern.compile("listening on https?://[^:]+:(\\d+)");

  /** The runtime dependencies of prio-dp-client, each named by one class it holds. */
  private static final List<String> CLIENT_RUNTIME = List.of(
      "org.priodp.aggregator.client.DapClient", "org.priodp.aggregator.task.TaskParameters",
      "org.priodp.vdaf.Prio3", "org.priodp.field.Field128", "org.priodp.noise.RandomSource",
      "org.bouncycastle.jce.provider.BouncyCastleProvider", "com.sun.jna.Native",
      "org.hipparchus.optim.linear.SimplexSolver", "org.hipparchus.util.FastMath");

  @TempDir
  Path dir;

  @Test
  void theClientExampleUploadsAndCollectsWithTheClientArtifactAlone() throws Exception {
    Path root = Path.of(System.getProperty("priodp.root", ".."));
    Matcher section = SECTION.matcher(Files.readString(root.resolve("README.md")));
    assertTrue(section.find(), "README.md has no section \"The DAP aggregator, one artifact per"
        + " role\"");
    Matcher taskNew = TASK_NEW.matcher(section.group(1));
    assertTrue(taskNew.find(), "the section has no 'prio-dp task new' line");
    Matcher block = JAVA.matcher(section.group(1));
    assertTrue(block.find(), "the section has no java block");

    // the task, as the README makes it, but with free ports and in this test's folder
    int leaderPort = freePort();
    int helperPort = freePort();
    String leaderUrl = "http://127.0.0.1:" + leaderPort + "/";
    String helperUrl = "http://127.0.0.1:" + helperPort + "/";
    List<String> args = new ArrayList<>(Arrays.asList(taskNew.group(1).strip().split("\\s+")));
    replaceValue(args, "--leader-url", leaderUrl);
    replaceValue(args, "--helper-url", helperUrl);
    replaceValue(args, "--out", dir.resolve("task1").toString());
    StringWriter err = new StringWriter();
    CommandLine cl = PrioDp.commandLine();
    cl.setOut(new PrintWriter(new StringWriter()));
    cl.setErr(new PrintWriter(err));
    assertEquals(0, cl.execute(args.toArray(String[]::new)), "task new failed: " + err);
    JsonNode collector = new ObjectMapper().readTree(dir.resolve("task1/collector.json").toFile());
    List<String> values = List.of(collector.get("leader_aggregator_endpoint").asText(),
        collector.get("helper_aggregator_endpoint").asText(), collector.get("task_id").asText(),
        collector.get("collector_auth_token").asText(),
        collector.get("collector_hpke_config").get("id").asText(),
        collector.get("collector_hpke_config").get("public_key").asText(),
        collector.get("collector_hpke_private_key").asText());

    // the example, compiled against the Client artifact's class path only
    String clientClassPath = clientRuntimeClassPath();
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Path source = dir.resolve("UploadAndCollect.java");
    Files.writeString(source, block.group(1));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int rc = javac.run(null, null, diagnostics, "-d", classes.toString(), "-cp", clientClassPath,
        source.toString());
    assertEquals(0, rc, "the README example does not compile against prio-dp-client alone:\n"
        + diagnostics);

    Process helper = serve(dir.resolve("task1/helper.json"), "helper", helperPort);
    Process leader = null;
    try {
      leader = serve(dir.resolve("task1/leader.json"), "leader", leaderPort);
      List<String> run = new ArrayList<>(List.of(javaBinary(), "-cp",
          clientClassPath + File.pathSeparator + classes, "UploadAndCollect"));
      run.addAll(values);
      Path out = dir.resolve("example.out");
      Process example = new ProcessBuilder(run).redirectErrorStream(true)
          .redirectOutput(out.toFile()).start();
      if (!example.waitFor(3, TimeUnit.MINUTES)) {
        example.destroyForcibly().waitFor();
        throw new AssertionError("the example did not end:\n" + Files.readString(out));
      }
      String printed = Files.readString(out).strip();
      assertEquals(0, example.exitValue(), "the example failed:\n" + printed + "\n--- leader\n"
          + log("leader") + "\n--- helper\n" + log("helper"));
      System.out.println("the README's client example printed: " + printed);
      Matcher m = OUTPUT.matcher(printed);
      assertTrue(m.matches(), "unexpected output: " + printed);
      assertEquals("10", m.group(1), printed);
      List<BigInteger> estimates = Arrays.stream(m.group(2).split(", ")).map(BigInteger::new)
          .toList();
      BigInteger bound = new BigInteger(m.group(3)).multiply(BigInteger.valueOf(50));
      List<Long> truth = List.of(1L, 2L, 3L, 4L);
      assertEquals(4, estimates.size(), printed);
      for (int i = 0; i < 4; i++) {
        BigInteger error = estimates.get(i).subtract(BigInteger.valueOf(truth.get(i))).abs();
        assertTrue(error.compareTo(bound) <= 0, "bucket " + i + ": " + printed);
      }
    } finally {
      if (leader != null) {
        stop(leader);
      }
      stop(helper);
    }
  }

  /** Returns the class path of prio-dp-client's runtime: the folder or jar of each class. */
  private static String clientRuntimeClassPath() throws Exception {
    Set<String> entries = new LinkedHashSet<>();
    for (String name : CLIENT_RUNTIME) {
      Class<?> c = Class.forName(name, false, ReadmeClientExampleTest.class.getClassLoader());
      entries.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString());
    }
    // and none of what the Client artifact must not bring
    for (String name : List.of("org.priodp.aggregator.core.TaskDefinition",
        "org.priodp.aggregator.server.AggregatorServer", "org.priodp.aggregator.cli.PrioDp",
        "io.vertx.core.Vertx", "com.fasterxml.jackson.databind.ObjectMapper",
        "org.slf4j.Logger")) {
      Class<?> c = Class.forName(name, false, ReadmeClientExampleTest.class.getClassLoader());
      String location = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
      assertTrue(!entries.contains(location), name + " is on the client's class path: " + entries);
    }
    return entries.stream().collect(Collectors.joining(File.pathSeparator));
  }

  /** Starts {@code prio-dp serve} for one aggregator with its own SQLite store in this folder. */
  private Process serve(Path taskFile, String name, int port) throws Exception {
    Path log = dir.resolve(name + ".log");
    Process p = new ProcessBuilder(javaBinary(), "-Xmx256m", "-cp",
        System.getProperty("java.class.path"), PrioDp.class.getName(), "serve", "--config",
        taskFile.toString(), "--port", Integer.toString(port), "--db",
        "jdbc:sqlite:" + dir.resolve(name + ".db")).redirectError(log.toFile()).start();
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
        StandardCharsets.UTF_8));
    String line = CompletableFuture.supplyAsync(() -> {
      try {
        for (String l = r.readLine(); l != null; l = r.readLine()) {
          if (LISTENING.matcher(l).find()) {
            return l;
          }
        }
      } catch (IOException e) {
        // the process ended
      }
      return null;
    }).get(2, TimeUnit.MINUTES);
    if (line == null) {
      stop(p);
      throw new AssertionError(name + " did not start:\n" + log(name));
    }
    return p;
  }

  private String log(String name) {
    try {
      return Files.readString(dir.resolve(name + ".log"));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  private static void stop(Process p) throws InterruptedException {
    p.destroy();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static void replaceValue(List<String> args, String option, String value) {
    int i = args.indexOf(option);
    assertTrue(i >= 0 && i + 1 < args.size(), "the README's task new has no " + option);
    args.set(i + 1, value);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
