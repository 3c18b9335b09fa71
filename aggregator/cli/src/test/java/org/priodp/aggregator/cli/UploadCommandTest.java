package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.HpkeConfigList;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportUploadStatus;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.testing.FakeHttp.Response;
import org.priodp.aggregator.testing.FakeHttp;
import org.priodp.vdaf.Prio3Variant;
import picocli.CommandLine;

/**
 * {@code upload}: measurements from arguments, stdin and a file, parsed per VDAF; the one-line
 * summary and exit status; one-line errors that name the measurement, the file or the Leader's
 * DAP error, before any upload for a bad measurement.
 */
class UploadCommandTest {
  @TempDir
  Path dir;

  private final List<List<ReportUploadStatus>> rejections = new ArrayList<>();
  private final List<UploadRequest> uploads = new ArrayList<>();

  private static byte[] configList() {
    HpkeSuite s = HpkeSuite.DAP_MANDATORY;
    return new HpkeConfigList(List.of(new HpkeConfig(new HpkeConfigId(1), s.kem(), s.kdf(),
        s.aead(), new Hpke(s).generateKeyPair().publicKey()))).encode();
  }

  /** A Leader (and Helper) that records uploads and rejects every report with a given error. */
  private FakeHttp leader(ReportError reject) throws Exception {
    byte[] configs = configList();
    return new FakeHttp(req -> {
      if (req.method().equals("GET")) {
        return Response.of(200, configs);
      }
      UploadRequest u = UploadRequest.decode(req.body());
      uploads.add(u);
      if (reject == null) {
        return Response.of(200, new byte[0]);
      }
      List<ReportUploadStatus> s = u.reports().stream()
          .map(r -> new ReportUploadStatus(r.reportMetadata().reportId(), reject)).toList();
      rejections.add(s);
      return Response.of(200, new UploadErrors(s).encode(DapVersion.DAP_19));
    });
  }

  private Path clientJson(String leaderUrl, String... vdaf) throws Exception {
    Path out = dir.resolve("t" + System.nanoTime());
    List<String> args = new ArrayList<>(List.of("task", "new", "--leader-url", leaderUrl,
        "--helper-url", leaderUrl, "--out", out.toString()));
    args.addAll(List.of(vdaf));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    return out.resolve("client.json");
  }

  private static CliRun run(String stdin, String... args) {
    CommandLine cl = PrioDp.commandLine();
    ((UploadCommand) cl.getSubcommands().get("upload").getCommand()).stdin =
        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    String[] all = new String[args.length + 1];
    all[0] = "upload";
    System.arraycopy(args, 0, all, 1, args.length);
    return new CliRun(cl.execute(all), out.toString(), err.toString());
  }

  /** upload with another file of task new names the file and the one it needs (issue 24). */
  @Test
  void aTaskFileOfAnotherKindIsNamed() {
    CliRun made = CliRun.taskNew(dir);
    assertEquals(0, made.code(), made.err());
    for (String[] c : new String[][] {{"helper.json", "a Helper's task file"},
        {"leader.json", "a Leader's task file"}, {"collector.json", "the Collector's task file"}}) {
      CliRun r = CliRun.of("upload", "--task", dir.resolve(c[0]).toString(), "1");
      assertTrue(r.failedWithOneLine(c[0] + " is " + c[1] + "; upload needs the Client's"
          + " (client.json, written by task new)"), r.err());
      assertEquals(2, r.code());
    }
  }

  /**
   * A collector_selected task's reports go to the website (draft-ietf-ppm-dap-attribution-00
   * section 4): upload --output writes them, one base64url Report per line, and sends none;
   * without --output such a task is refused in one line.
   */
  @Test
  void aCollectorSelectedTasksReportsAreWrittenNotUploaded() throws Exception {
    try (FakeHttp leader = leader(null)) {
      Path client = clientJson(leader.url(), "--vdaf", "Prio3Count", "--batch-mode",
          "collector_selected");
      Path bundle = dir.resolve("bundle.txt");
      CliRun r = run("", "--task", client.toString(), "--output", bundle.toString(), "1", "0",
          "1");
      assertEquals(0, r.code(), r.err());
      assertEquals("3 reports written to " + bundle + " (not uploaded)\n", r.out());
      assertEquals(List.of(), uploads, "nothing sent to the Leader");
      assertEquals(3, ReportBundle.read(bundle).size());
      CliRun refused = run("", "--task", client.toString(), "1");
      assertTrue(refused.failedWithOneLine("collector_selected batch mode"), refused.err());
    }
  }

  @Test
  void uploadsMeasurementsFromArgumentsStdinAndAFileAndPrintsOneLine() throws Exception {
    try (FakeHttp leader = leader(null)) {
      Path client = clientJson(leader.url(), "--vdaf", "Prio3Histogram", "--length", "4",
          "--chunk-length", "2");
      Path file = dir.resolve("m.txt");
      Files.writeString(file, "# buckets\n3\n\n2\n");
      CliRun r = run("0\n1\n", "--task", client.toString(), "--file", file.toString(), "1", "-",
          "--reports-per-request", "2");
      assertEquals(0, r.code(), r.err());
      assertEquals("5 reports: 5 accepted, 0 rejected\n", r.out());
      assertEquals(3, uploads.size(), "two reports a request");
      assertEquals(5, uploads.stream().mapToInt(u -> u.reports().size()).sum());
    }
  }

  @Test
  void rejectedReportsAreCountedPerErrorAndExitWith3() throws Exception {
    try (FakeHttp leader = leader(ReportError.REPORT_TOO_EARLY)) {
      Path client = clientJson(leader.url(), "--vdaf", "Prio3Count");
      CliRun r = run("", "--task", client.toString(), "1", "0", "1");
      assertEquals(3, r.code(), r.err());
      assertEquals("3 reports: 0 accepted, 3 rejected (report_too_early 3)\n", r.out());
    }
  }

  @Test
  void aBadMeasurementIsOneLineNamingItAndNothingIsUploaded() throws Exception {
    try (FakeHttp leader = leader(null)) {
      Path client = clientJson(leader.url(), "--vdaf", "Prio3Histogram", "--length", "4",
          "--chunk-length", "2");
      CliRun r = run("", "--task", client.toString(), "1", "4");
      assertTrue(r.failedWithOneLine("upload: measurement 2 '4': expected a bucket index in"
          + " [0, 4), got 4"), r.err());
      assertEquals(2, r.code());
      CliRun s = run("1\nx\n", "--task", client.toString(), "-");
      assertTrue(s.failedWithOneLine("stdin line 2 'x': expected a bucket index"), s.err());
      assertEquals(0, leader.requests.size(), "not even the HPKE configs were fetched");
    }
  }

  /**
   * --privacy-budget puts the attribution draft's privacy_budget (micro-epsilons, exactly) in each
   * report's public extensions; a value that is not a whole number of micro-epsilons is one line
   * naming the option, before anything is fetched.
   */
  @Test
  void privacyBudgetIsAPublicExtensionOfEachReportAndABadOneIsOneLine() throws Exception {
    try (FakeHttp leader = leader(null)) {
      Path client = clientJson(leader.url(), "--vdaf", "Prio3Count");
      CliRun bad = run("", "--task", client.toString(), "--privacy-budget", "0.0000001", "1");
      assertTrue(bad.failedWithOneLine("upload: --privacy-budget: an epsilon is a non-negative"
          + " whole number of micro-epsilons"), bad.err());
      assertEquals(0, leader.requests.size(), "nothing fetched");
      CliRun r = run("", "--task", client.toString(), "--privacy-budget", "0.25", "1", "0");
      assertEquals(0, r.code(), r.err());
      List<org.priodp.aggregator.dap.ReportExtension> expected = List.of(
          new org.priodp.aggregator.dap.ReportExtension(0xFA01, new byte[] {0, 3, (byte) 0xd0, (byte) 0x90}));
      for (UploadRequest u : uploads) {
        u.reports().forEach(rep -> assertEquals(expected, rep.reportMetadata().publicExtensions()));
      }
      assertEquals(2, uploads.stream().mapToInt(u -> u.reports().size()).sum());
    }
  }

  @Test
  void missingInputsAndUnreachableOrRefusingLeadersAreOneLine() throws Exception {
    Path none = dir.resolve("missing.json");
    assertTrue(run("", "--task", none.toString(), "1").failedWithOneLine("no such file"));
    try (FakeHttp leader = leader(null)) {
      Path client = clientJson(leader.url(), "--vdaf", "Prio3Count");
      assertTrue(run("", "--task", client.toString()).failedWithOneLine("no measurements"));
      assertTrue(run("", "--task", client.toString(), "--file", dir.resolve("x").toString())
          .failedWithOneLine("--file"));
    }
    Path down = clientJson("http://127.0.0.1:9/", "--vdaf", "Prio3Count");
    CliRun r = run("", "--task", down.toString(), "1");
    assertEquals(1, r.code(), r.err());
    assertTrue(r.failedWithOneLine("cannot connect to http://127.0.0.1:9/"), r.err());
    // the URL and the question, not the JDK's ClosedChannelException (issue 24)
    assertTrue(r.err().contains(": connection refused; is the Leader running?"), r.err());
    assertFalse(r.err().contains("Exception"), r.err());
    try (FakeHttp refusing = new FakeHttp(req -> req.method().equals("GET")
        ? Response.of(200, configList())
        : new Response(404, Map.of("Content-Type", "application/problem+json"),
            "{\"type\":\"urn:ietf:params:ppm:dap:error:unrecognizedTask\"}".getBytes(
                StandardCharsets.UTF_8)))) {
      Path client = clientJson(refusing.url(), "--vdaf", "Prio3Count");
      CliRun p = run("", "--task", client.toString(), "1");
      assertEquals(2, p.code());
      assertTrue(p.failedWithOneLine("upload: the Leader refused the upload: unrecognizedTask"
          + " (HTTP 404)"), p.err());
    }
  }

  @Test
  void measurementsAreParsedPerVdaf() {
    assertEquals(List.of(BigInteger.ONE), UploadCommand.parse(new Prio3Variant.Count(), " 1 "));
    assertThrows(IllegalArgumentException.class,
        () -> UploadCommand.parse(new Prio3Variant.Count(), "2"));
    assertEquals(List.of(BigInteger.valueOf(255)),
        UploadCommand.parse(new Prio3Variant.Sum(BigInteger.valueOf(255)), "255"));
    assertThrows(IllegalArgumentException.class,
        () -> UploadCommand.parse(new Prio3Variant.Sum(BigInteger.valueOf(255)), "-1"));
    Prio3Variant sumVec = Prio3Variant.SumVec.of(3, BigInteger.valueOf(9), 2);
    assertEquals(List.of(BigInteger.ONE, BigInteger.ZERO, BigInteger.valueOf(9)),
        UploadCommand.parse(sumVec, "1, 0,9"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> UploadCommand.parse(sumVec, "1,2"));
    assertEquals("expected 3 comma-separated integers in [0, 9], got 2 values", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> UploadCommand.parse(sumVec, "1,10,2"));
    assertEquals("element 2: expected integers in [0, 9], got 10", e.getMessage());
    Prio3Variant multihot = new Prio3Variant.MultihotCountVec(4, 2, 2);
    assertEquals(4, UploadCommand.parse(multihot, "1,0,1,0").size());
    e = assertThrows(IllegalArgumentException.class,
        () -> UploadCommand.parse(multihot, "1,1,1,0"));
    assertEquals("3 ones, max_weight is 2", e.getMessage());
    Prio3Variant l1 = new Prio3Variant.L1BoundSum(3, BigInteger.valueOf(10), 2);
    assertEquals(List.of(BigInteger.TEN, BigInteger.ZERO, BigInteger.ZERO), UploadCommand.parse(l1, "10,0,0"));
    assertEquals(List.of(BigInteger.TWO, BigInteger.valueOf(3), BigInteger.valueOf(5)),
        UploadCommand.parse(l1, "2, 3, 5"));
    e = assertThrows(IllegalArgumentException.class, () -> UploadCommand.parse(l1, "2,3,6"));
    assertEquals("the sum 11 exceeds max_value 10", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> UploadCommand.parse(l1, "0,11,0"));
    assertEquals("element 2: expected integers >= 0 summing to at most 10, got 11", e.getMessage());
  }

  @Test
  void theSummaryCountsRejectionsPerErrorType() {
    var id = new org.priodp.aggregator.dap.ReportId(new byte[16]);
    assertEquals("1 report: 1 accepted, 0 rejected", UploadCommand.summary(1, new UploadErrors(
        List.of())));
    assertEquals("5 reports: 2 accepted, 3 rejected (report_replayed 1, task_expired 2)",
        UploadCommand.summary(5, new UploadErrors(List.of(
            new ReportUploadStatus(id, ReportError.TASK_EXPIRED),
            new ReportUploadStatus(id, ReportError.REPORT_REPLAYED),
            new ReportUploadStatus(id, ReportError.TASK_EXPIRED)))));
  }
}
