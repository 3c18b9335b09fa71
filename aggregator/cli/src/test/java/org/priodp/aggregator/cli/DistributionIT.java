package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution of docs/DEPLOY.md works with only a JDK: {@code prio-dp-VERSION.tar.gz},
 * unpacked into an empty folder, runs {@code bin/prio-dp --version}, {@code --help} and
 * {@code serve} (a Helper on SQLite, up to {@code /healthz} and {@code /readyz}, then SIGTERM)
 * and a whole task (task new, a Leader and a Helper serve, upload, collect) from that folder, with
 * a PATH of the JDK's bin folder and a few basic tools (no Maven, no source tree), and its launcher
 * refuses a missing or old Java in one clear line. The tarball holds the cli module's runtime
 * class path: the service and library commands, none of the conformance module's (no JMH, no
 * XChart).
 *
 * <p>Runs after {@code package} (the surefire execution {@code distribution-test} of the cli
 * POM, phase {@code integration-test}), which passes the tarball in the system
 * property {@code priodp.distribution}. New end-to-end steps (a Leader, {@code upload},
 * {@code collect}) are new test methods on {@link #dist}: {@link Dist#run} for a command,
 * {@link Dist#serve} for a server.
 */
class DistributionIT {

  @TempDir static Path work;

  /** The unpacked distribution and the JDK-only environment it runs in. */
  static Dist dist;

  @BeforeAll
  static void unpack() throws Exception {
    String tarball = System.getProperty("priodp.distribution");
    Assumptions.assumeTrue(tarball != null,
        "no priodp.distribution: this test runs after packaging, in mvn verify");
    dist = Dist.unpack(Path.of(tarball), work);
  }

  @Test
  void layoutHasLauncherJarsAndConfigButNoJavadocNorTestJars() throws IOException {
    assertTrue(Files.isExecutable(dist.home.resolve("bin/prio-dp")), "bin/prio-dp not executable");
    List<String> jars;
    try (Stream<Path> s = Files.list(dist.home.resolve("lib"))) {
      jars = s.map(p -> p.getFileName().toString()).sorted().toList();
    }
    for (String prefix : List.of("prio-dp-field-", "prio-dp-noise-", "prio-dp-vdaf-adapter-",
        "prio-dp-dap-messages-", "prio-dp-datastore-", "prio-dp-aggregator-core-",
        "prio-dp-client-", "prio-dp-aggregator-server-", "prio-dp-cli-", "logback-classic-",
        "sqlite-jdbc-", "postgresql-", "picocli-")) {
      assertTrue(jars.stream().anyMatch(j -> j.startsWith(prefix)), prefix + "* missing: " + jars);
    }
    assertFalse(jars.stream().anyMatch(j -> j.endsWith("-javadoc.jar") || j.endsWith("-sources.jar")
        || j.startsWith("junit-") || j.startsWith("opentest4j")), "unexpected jar in " + jars);
    // what proves things (the conformance module, its benchmarks and plots) stays in the source tree
    assertFalse(jars.stream().anyMatch(j -> j.startsWith("prio-dp-conformance-")
        || j.startsWith("jmh-") || j.startsWith("xchart-") || j.startsWith("jopt-simple-")
        || j.startsWith("commons-math3-")), "a conformance jar in " + jars);
    for (String f : List.of("config/prio-dp@.service", "config/helper.env", "config/leader.env",
        "config/tasks.example.json", "docs/DEPLOY.md", "docs/DAP.md", "docs/PRIVACY.md",
        "README.md", "monitoring/grafana-dashboard.json", "monitoring/prometheus-alerts.yml")) {
      assertTrue(Files.isRegularFile(dist.home.resolve(f)), f + " missing");
    }
  }

  /**
   * The README at the tarball's root is the distribution's own (issue 24: it was the source
   * README, which clones and runs mvn verify): it starts a Leader and a Helper from this folder.
   */
  @Test
  void theReadmeIsTheDistributionsOwn() throws IOException {
    String readme = Files.readString(dist.home.resolve("README.md"));
    for (String step : List.of("bin/prio-dp task new ", "bin/prio-dp serve --config task1/helper.json",
        "bin/prio-dp serve --config task1/leader.json", "bin/prio-dp upload --task task1/client.json",
        "bin/prio-dp collect --task task1/collector.json", "config/leader.env", "docs/DEPLOY.md")) {
      assertTrue(readme.contains(step), "README.md lacks " + step);
    }
    assertFalse(readme.contains("mvn -B"), "the source README");
  }

  /**
   * What the tarball's documents point to is in the tarball, or is named as part of the source
   * repository in the same paragraph (issue 24: docs/DAP.md pointed to a test resource of the
   * source tree): relative Markdown links, `config/`, `docs/`, `bin/` and `lib/` paths and
   * docs/NAME.md resolve; source paths (aggregator/..., ../shared) and the source tree's commands
   * (vectors, audit, reproduce, benchmarks, loadgen) say "source repository".
   */
  @Test
  void theDocumentsPointOnlyAtFilesTheTarballHas() throws IOException {
    Pattern link = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");
    Pattern local = Pattern.compile("(?<![\\w/.-])((?:config|docs|bin|lib)/[A-Za-z0-9_@.-]+[A-Za-z0-9_])");
    Pattern source = Pattern.compile("`(?:aggregator/|conformance/|\\.\\./shared|shared/)[^`]*`"
        + "|\\./prio-dp (?:vectors|audit|reproduce|benchmarks|loadgen)\\b");
    List<String> problems = new java.util.ArrayList<>();
    for (String doc : List.of("README.md", "docs/DEPLOY.md", "docs/DAP.md", "docs/PRIVACY.md")) {
      Path file = dist.home.resolve(doc);
      for (String paragraph : Files.readString(file).split("\\n\\s*\\n")) {
        Matcher m = link.matcher(paragraph);
        while (m.find()) {
          String target = m.group(1);
          if (!target.contains("://") && !Files.exists(file.getParent().resolve(target))) {
            problems.add(doc + ": link to " + target);
          }
        }
        m = local.matcher(paragraph);
        while (m.find()) {
          String path = m.group(1);
          if (!path.contains("VERSION") && !Files.exists(dist.home.resolve(path))
              && !paragraph.contains("source repository")) {
            problems.add(doc + ": " + path + " is not in the tarball");
          }
        }
        m = source.matcher(paragraph);
        while (m.find()) {
          if (!paragraph.contains("source repository")) {
            problems.add(doc + ": " + m.group() + " without \"source repository\"");
          }
        }
      }
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void versionAndHelpRunWithOnlyAJdk() throws Exception {
    Result version = dist.run("--version");
    assertEquals(0, version.exit(), version.toString());
    assertEquals("prio-dp " + System.getProperty("priodp.version", "unknown"),
        version.stdout().strip());

    Result help = dist.run("--help");
    assertEquals(0, help.exit(), help.toString());
    // the commands come from ServiceLoader (META-INF/services of the cli jar)
    for (String command : List.of("serve", "keys", "demo", "task", "upload", "collect",
        "sample")) {
      assertTrue(help.stdout().contains("\n  " + command + " "), command + " not in:\n" + help);
    }
    for (String command : List.of("loadgen", "vectors", "audit", "reproduce", "benchmarks")) {
      assertFalse(help.stdout().contains("\n  " + command + " "), command + " in:\n" + help);
    }
  }

  @Test
  void configExamplesSetOnlyVariablesThatServeReads() throws Exception {
    Result help = dist.run("serve", "--help");
    assertEquals(0, help.exit(), help.toString());
    Pattern assignment = Pattern.compile("(?m)^#?(PRIODP_[A-Z_]+)=");
    for (String file : List.of("config/helper.env", "config/leader.env")) {
      Matcher m = assignment.matcher(Files.readString(dist.home.resolve(file)));
      int n = 0;
      while (m.find()) {
        n++;
        assertTrue(help.stdout().contains("[" + m.group(1) + "]")
            || m.group(1).equals("PRIODP_DB_PASSWORD"), file + ": serve does not read " + m.group(1));
      }
      assertTrue(n >= 8, file + " sets only " + n + " PRIODP_ variables");
    }
  }

  @Test
  void systemdUnitPassesSystemdAnalyzeVerify() throws Exception {
    Path analyze = Stream.of("/usr/bin/systemd-analyze", "/bin/systemd-analyze").map(Path::of)
        .filter(Files::isExecutable).findFirst().orElse(null);
    Assumptions.assumeTrue(analyze != null, "no systemd-analyze on this machine");
    // the unit as installed, but with ExecStart at this unpacked launcher (verify checks it)
    Path units = Files.createDirectories(work.resolve("units"));
    String unit = Files.readString(dist.home.resolve("config/prio-dp@.service"));
    assertTrue(unit.contains("ExecStart=/opt/prio-dp/bin/prio-dp serve"), unit);
    Files.writeString(units.resolve("prio-dp@.service"), unit.replace("/opt/prio-dp/bin/prio-dp",
        dist.home.resolve("bin/prio-dp").toString()));
    Process p = new ProcessBuilder(analyze.toString(), "verify",
        units.resolve("prio-dp@helper.service").toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    assertEquals("", out.strip(), "systemd-analyze verify complains");
  }

  @Test
  void launcherNamesAMissingOrOldJava() throws Exception {
    Map<String, String> noJava = new LinkedHashMap<>(dist.env);
    noJava.put("PATH", dist.tools.toString());
    Result missing = dist.run(noJava, "--version");
    assertEquals(1, missing.exit(), missing.toString());
    assertTrue(missing.stderr().contains("prio-dp: Java not found"), missing.toString());

    Path old = work.resolve("old-jdk");
    Files.createDirectories(old.resolve("bin"));
    Path fake = old.resolve("bin/java");
    Files.writeString(fake, "#!/bin/sh\necho 'openjdk version \"11.0.22\" 2024-01-16' >&2\n");
    fake.toFile().setExecutable(true);
    Map<String, String> oldJava = new LinkedHashMap<>(noJava);
    oldJava.put("JAVA_HOME", old.toString());
    Result tooOld = dist.run(oldJava, "--version");
    assertEquals(1, tooOld.exit(), tooOld.toString());
    assertTrue(tooOld.stderr().contains("Java 17 or later is needed")
        && tooOld.stderr().contains("11.0.22"), tooOld.toString());

    Map<String, String> viaJavaHome = new LinkedHashMap<>(noJava);
    viaJavaHome.put("JAVA_HOME", System.getProperty("java.home"));
    Result ok = dist.run(viaJavaHome, "--version");
    assertEquals(0, ok.exit(), ok.toString());
  }

  @Test
  void serveHelperAnswersHealthAndReadinessThenStopsOnSigterm() throws Exception {
    Path tasks = dist.cwd.resolve("helper.json");
    Files.copy(dist.home.resolve("config/tasks.example.json"), tasks);
    Files.createDirectories(dist.cwd.resolve("state"));

    Server helper = dist.serve(tasks, "jdbc:sqlite:state/helper.db");
    try {
      assertEquals(200, helper.awaitStatus("/healthz", 200), helper.log());
      assertEquals(200, helper.awaitStatus("/readyz", 200), helper.log());
      assertEquals(200, helper.get("/metrics").statusCode(), helper.log());
      assertTrue(Files.isRegularFile(dist.cwd.resolve("state/helper.db")),
          "the store is not in the working folder");
    } finally {
      int exit = helper.stop();
      assertEquals(0, exit, "serve did not exit 0 on SIGTERM:\n" + helper.log());
    }
    assertTrue(helper.log().contains("stopped"), helper.log());
  }

  @Test
  void taskNewLeaderAndHelperServeUploadAndCollectFromTheTarball() throws Exception {
    // a task names both aggregators' URLs: pick two free loopback ports first
    int leaderPort = freePort();
    int helperPort = freePort();
    Result created = dist.run("task", "new", "--vdaf", "Prio3Histogram", "--length", "4",
        "--chunk-length", "2", "--time-precision", "2", "--min-batch-size", "1",
        "--leader-url", "http://127.0.0.1:" + leaderPort + "/",
        "--helper-url", "http://127.0.0.1:" + helperPort + "/", "--out", "task1");
    assertEquals(0, created.exit(), created.toString());
    for (String f : List.of("leader.json", "helper.json", "collector.json", "client.json")) {
      assertTrue(Files.isRegularFile(dist.cwd.resolve("task1").resolve(f)), f + ": " + created);
    }
    // each aggregator with its own task file and SQLite store, as two hosts would have
    Path leaderDir = Files.createDirectories(dist.cwd.resolve("leader"));
    Path helperDir = Files.createDirectories(dist.cwd.resolve("helper"));
    Files.copy(dist.cwd.resolve("task1/leader.json"), leaderDir.resolve("leader.json"));
    Files.copy(dist.cwd.resolve("task1/helper.json"), helperDir.resolve("helper.json"));

    Server helper = dist.serve(helperDir.resolve("helper.json"), "jdbc:sqlite:helper/helper.db",
        helperPort);
    Server leader = null;
    try {
      leader = dist.serve(leaderDir.resolve("leader.json"), "jdbc:sqlite:leader/leader.db",
          leaderPort);
      long precision = 2;
      long start = Math.floorDiv(System.currentTimeMillis() / 1000, precision) * precision;
      Result upload = dist.run("upload", "--task", "task1/client.json", "0", "3", "1", "1", "2",
          "3", "3");
      assertEquals(0, upload.exit(), upload + "\n--- leader\n" + leader.log());
      long end = (Math.floorDiv(System.currentTimeMillis() / 1000, precision) + 1) * precision;

      Result collect = dist.run("collect", "--task", "task1/collector.json", "--interval",
          start + "/" + (end - start), "--format", "csv", "--timeout", "90");
      assertEquals(0, collect.exit(), collect + "\n--- leader\n" + leader.log()
          + "\n--- helper\n" + helper.log());
      // no DP: the estimates are the true counts and the intervals are points
      assertEquals(List.of("index,estimate,lower,upper", "0,1,1,1", "1,2,2,2", "2,1,1,1",
          "3,3,3,3"), collect.stdout().strip().lines().toList(), collect.toString());
      assertTrue(Files.isRegularFile(leaderDir.resolve("leader.db")), leader.log());
      assertTrue(Files.isRegularFile(helperDir.resolve("helper.db")), helper.log());
    } finally {
      if (leader != null) {
        assertEquals(0, leader.stop(), "the Leader did not exit 0 on SIGTERM:\n" + leader.log());
      }
      assertEquals(0, helper.stop(), "the Helper did not exit 0 on SIGTERM:\n" + helper.log());
    }
  }

  private static int freePort() throws IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** What a command printed and its exit status. */
  record Result(int exit, String stdout, String stderr) {
    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
    }
  }

  /**
   * The distribution unpacked in {@code work/unpacked}, run from the empty folder
   * {@code work/run} with an environment of PATH (the JDK's bin folder and {@code work/tools},
   * symbolic links to a few basic system tools), HOME (an empty folder), LANG and JAVA_OPTS only.
   */
  static final class Dist {
    final Path home;
    final Path cwd;
    final Path tools;
    final Map<String, String> env = new LinkedHashMap<>();

    private Dist(Path home, Path cwd, Path tools) {
      this.home = home;
      this.cwd = cwd;
      this.tools = tools;
    }

    /** Unpacks {@code tarball} under {@code work} with tar, as an operator would. */
    static Dist unpack(Path tarball, Path work) throws Exception {
      assertTrue(Files.isRegularFile(tarball), "no distribution at " + tarball);
      Path unpacked = Files.createDirectories(work.resolve("unpacked"));
      Process tar = new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C",
          unpacked.toString()).redirectErrorStream(true).start();
      String out = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(0, tar.waitFor(), "tar failed: " + out);
      Path home;
      try (Stream<Path> s = Files.list(unpacked)) {
        List<Path> top = s.toList();
        assertEquals(1, top.size(), "the tarball has one top folder: " + top);
        home = top.get(0);
      }
      String name = tarball.getFileName().toString();
      assertEquals(name.substring(0, name.length() - ".tar.gz".length()),
          home.getFileName().toString());

      Path tools = Files.createDirectories(work.resolve("tools"));
      for (String tool : List.of("sh", "readlink", "cat", "ls", "mkdir", "rm", "sleep", "env")) {
        for (String dir : List.of("/usr/bin", "/bin")) {
          Path p = Path.of(dir, tool);
          if (Files.isExecutable(p)) {
            Files.createSymbolicLink(tools.resolve(tool), p);
            break;
          }
        }
      }
      Dist d = new Dist(home, Files.createDirectories(work.resolve("run")), tools);
      Path jdkBin = Path.of(System.getProperty("java.home"), "bin");
      d.env.put("PATH", jdkBin + ":" + tools);
      d.env.put("HOME", Files.createDirectories(work.resolve("home")).toString());
      d.env.put("LANG", "C.UTF-8");
      // two flags: the launcher must split JAVA_OPTS (one argument would not start the JVM)
      d.env.put("JAVA_OPTS", "-Xmx256m -XX:+UseSerialGC");
      // the bearer token of the example task file's first task (auth_token_env)
      d.env.put("PRIODP_EXAMPLE_TOKEN", "distribution-test-token");
      return d;
    }

    private ProcessBuilder builder(Map<String, String> environment, List<String> args) {
      List<String> cmd = new ArrayList<>();
      cmd.add(home.resolve("bin/prio-dp").toString());
      cmd.addAll(args);
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
      pb.environment().clear();
      pb.environment().putAll(environment);
      return pb;
    }

    /** Runs {@code bin/prio-dp args} to its end (2 minutes at most). */
    Result run(String... args) throws Exception {
      return run(env, args);
    }

    /** Runs {@code bin/prio-dp args} with another environment. */
    Result run(Map<String, String> environment, String... args) throws Exception {
      Path out = Files.createTempFile(cwd.getParent(), "out", ".txt");
      Path err = Files.createTempFile(cwd.getParent(), "err", ".txt");
      Process p = builder(environment, List.of(args)).redirectOutput(out.toFile())
          .redirectError(err.toFile()).start();
      if (!p.waitFor(2, TimeUnit.MINUTES)) {
        p.destroyForcibly().waitFor();
        throw new AssertionError("prio-dp " + String.join(" ", args) + " did not end");
      }
      return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** Starts {@code bin/prio-dp serve --config tasks --port 0 --db db extra...}. */
    Server serve(Path tasks, String db, String... extra) throws Exception {
      return serve(tasks, db, 0, extra);
    }

    /** Starts {@code bin/prio-dp serve --config tasks --port port --db db extra...}. */
    Server serve(Path tasks, String db, int port, String... extra) throws Exception {
      List<String> args = new ArrayList<>(List.of("serve", "--config", tasks.toString(),
          "--port", Integer.toString(port), "--db", db));
      args.addAll(List.of(extra));
      Path log = Files.createTempFile(cwd.getParent(), "serve", ".log");
      Process p = builder(env, args).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
      Server s = new Server(p, log);
      try {
        s.awaitListening();
      } catch (Exception | AssertionError e) {
        s.stop();
        throw new AssertionError("serve did not start:\n" + s.log(), e);
      }
      return s;
    }
  }

  /** A running {@code bin/prio-dp serve}: its port, its log (stderr) and plain HTTP requests. */
  static final class Server {
    private static final Pattern LISTENING = Pattern.compile("listening on (https?)://[^:]+:(\\d+)");
    private static final HttpClient HTTP =
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    final Process process;
    final Path logFile;
    String base;

    Server(Process process, Path logFile) {
      this.process = process;
      this.logFile = logFile;
    }

    void awaitListening() throws Exception {
      BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
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
      Matcher m = LISTENING.matcher(String.valueOf(line));
      assertTrue(m.find(), "no 'listening on' line: " + line);
      base = m.group(1) + "://127.0.0.1:" + m.group(2);
    }

    HttpResponse<String> get(String path) throws Exception {
      return HTTP.send(HttpRequest.newBuilder(URI.create(base + path))
          .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** GETs {@code path} until it answers {@code want} (one minute at most); returns the last status. */
    int awaitStatus(String path, int want) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      int status;
      do {
        try {
          status = get(path).statusCode();
        } catch (IOException e) {
          status = -1;
        }
        if (status != want) {
          Thread.sleep(200);
        }
      } while (status != want && System.nanoTime() < deadline);
      return status;
    }

    /** Sends SIGTERM and waits for the exit (30 s, then SIGKILL); returns the exit status. */
    int stop() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      return process.exitValue();
    }

    String log() {
      try {
        return Files.readString(logFile);
      } catch (IOException e) {
        return "(no log: " + e + ")";
      }
    }
  }
}
