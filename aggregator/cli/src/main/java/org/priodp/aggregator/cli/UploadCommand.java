package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.priodp.aggregator.client.DapClient;
import org.priodp.aggregator.client.DapProblemException;
import org.priodp.aggregator.dap.ReportUploadStatus;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.taskfile.ClientTaskFile;
import org.priodp.vdaf.Prio3Variant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code upload}: the Client of DAP-18 ("Uploading Reports") from client.json: one report per
 * measurement, from the arguments, a file or stdin, parsed for the task's VDAF, sharded, sealed
 * to both aggregators and uploaded to the Leader; prints how many the Leader accepted and why
 * it rejected the others.
 */
@Command(
    name = "upload",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Uploads one report per measurement to the task's Leader.",
      "Fetches both aggregators' HPKE configs, shards each measurement with Prio3, seals the"
          + " input shares and uploads the reports, in the DAP draft client.json names"
          + " (dap_version). A measurement is 0 or 1"
          + " (Prio3Count), an integer (Prio3Sum), a bucket index (Prio3Histogram) or a"
          + " comma-separated vector (Prio3SumVec; Prio3MultihotCountVec: 0 or 1 each;"
          + " Prio3L1BoundSum: integers whose sum is at most max_value). Prints"
          + " one line: reports accepted and rejected per error; the exit status is 3 if the"
          + " Leader rejected some reports (the others were accepted)."},
    footer = {"%nExample:", "  prio-dp upload --task task1/client.json 0 3 1 1",
      "  seq 0 3 | prio-dp upload --task task1/client.json -",
      "  prio-dp upload --task task2/client.json 240,0,0,0,0,0,0,0,0,0 1,2,3,0,0,0,0,0,0,4",
      "  # a collector_selected task: the reports go to the website, which collects them",
      "  prio-dp upload --task site/client.json --output bundle.txt 0 3 1 1"})
public final class UploadCommand implements PrioDpSubcommand {
  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--task", required = true, paramLabel = "FILE",
      description = "The Client's task file (client.json from task new).")
  Path task;

  @Option(names = "--file", paramLabel = "FILE",
      description = "Read measurements from FILE, one per line (- for stdin); blank lines and"
          + " lines starting with # are skipped.")
  String file;

  @Option(names = "--privacy-budget", paramLabel = "EPSILON",
      description = "The privacy budget this Client spent on each report (decimal epsilon,"
          + " e.g. 0.25): sent in the attribution draft's privacy_budget public report"
          + " extension. Required by tasks whose dp_strategy is ReportBudgetDiscreteLaplace or"
          + " ReportBudgetDiscreteGaussian.")
  String privacyBudget;

  @Option(names = "--reports-per-request", paramLabel = "N", defaultValue = "100",
      description = "Reports in one upload request.")
  int reportsPerRequest;

  @Option(names = "--output", paramLabel = "FILE",
      description = "Write the reports to FILE instead of uploading them: one base64url DAP"
          + " Report per line, the bundle a collector_selected task's Collector uploads to its"
          + " collection job (collect --reports FILE). Required for such a task.")
  Path output;

  @Parameters(paramLabel = "MEASUREMENT", arity = "0..*",
      description = "The measurements; - reads them from stdin, one per line.")
  List<String> measurements = new ArrayList<>();

  /** Where stdin comes from (tests replace it). */
  InputStream stdin = System.in;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (reportsPerRequest < 1) {
      throw new IllegalArgumentException("--reports-per-request: must be >= 1, got "
          + reportsPerRequest);
    }
    TaskParameters p = ClientTaskFile.read(task);
    List<String> lines = new ArrayList<>();
    List<String> where = new ArrayList<>();
    boolean stdinUsed = false;
    for (String m : measurements) {
      if (m.equals("-")) {
        stdinUsed = read("stdin", stdin, lines, where, stdinUsed);
      } else {
        lines.add(m);
        where.add("measurement " + (lines.size()));
      }
    }
    if (file != null) {
      if (file.equals("-")) {
        read("stdin", stdin, lines, where, stdinUsed);
      } else {
        Path f = Path.of(file);
        if (!Files.isRegularFile(f)) {
          throw new IOException("--file " + f + ": no such file");
        }
        try (InputStream in = Files.newInputStream(f)) {
          read(f.toString(), in, lines, where, false);
        }
      }
    }
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("no measurements: give them as arguments, with --file"
          + " FILE, or - to read stdin");
    }
    List<List<BigInteger>> parsed = new ArrayList<>(lines.size());
    for (int i = 0; i < lines.size(); i++) {
      try {
        parsed.add(parse(p.variant(), lines.get(i)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where.get(i) + " '" + lines.get(i).strip() + "': "
            + e.getMessage(), e);
      }
    }
    DapClient client = new DapClient(p, HttpClient.newBuilder()
        .connectTimeout(Duration.ofSeconds(10)).build(), new SecureRandom(), Clock.systemUTC(),
        reportsPerRequest);
    if (privacyBudget != null) {
      client = client.withPrivacyBudget(epsilon("--privacy-budget", privacyBudget));
    }
    if (output != null || p.configuration().batchMode()
        == org.priodp.aggregator.dap.BatchMode.COLLECTOR_SELECTED) {
      return writeBundle(p, client, parsed);
    }
    UploadErrors errors;
    try {
      errors = client.upload(parsed);
    } catch (DapProblemException e) {
      if (e.status() >= 500) {
        throw new CliIo.Failure(e.getMessage(), null);
      }
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (IOException e) {
      throw new CliIo.Failure(e.getMessage(), e.getCause());
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(summary(parsed.size(), errors));
    out.flush();
    return errors.status().isEmpty() ? 0 : 3;
  }

  /** Builds the reports without uploading them and writes them to --output. */
  private int writeBundle(TaskParameters p, DapClient client, List<List<BigInteger>> parsed)
      throws IOException, InterruptedException {
    if (output == null) {
      throw new IllegalArgumentException("the task uses the collector_selected batch mode: its"
          + " reports go to the Collector, which uploads them to a collection job; give"
          + " --output FILE");
    }
    List<org.priodp.aggregator.dap.Report> reports;
    try {
      reports = client.reports(parsed);
    } catch (IOException e) {
      throw new CliIo.Failure(e.getMessage(), e.getCause());
    }
    ReportBundle.write(output, reports);
    PrintWriter out = spec.commandLine().getOut();
    out.println(reports.size() + (reports.size() == 1 ? " report" : " reports") + " written to "
        + output + " (not uploaded)");
    out.flush();
    return 0;
  }

  /** Reads one measurement per line; returns true (stdin is read at most once). */
  private static boolean read(String name, InputStream in, List<String> lines, List<String> where,
      boolean alreadyRead) throws IOException {
    if (alreadyRead) {
      throw new IllegalArgumentException("stdin (-) can be read only once");
    }
    String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    int n = 0;
    for (String line : text.split("\\R", -1)) {
      n++;
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      lines.add(l);
      where.add(name + " line " + n);
    }
    return true;
  }

  /**
   * Returns the summary line, e.g. {@code 10 reports: 8 accepted, 2 rejected (report_too_early
   * 2)}.
   */
  static String summary(int total, UploadErrors errors) {
    int rejected = errors.status().size();
    StringBuilder b = new StringBuilder().append(total).append(total == 1 ? " report: " : " reports: ")
        .append(total - rejected).append(" accepted, ").append(rejected).append(" rejected");
    if (rejected > 0) {
      Map<String, Integer> by = new TreeMap<>();
      for (ReportUploadStatus s : errors.status()) {
        by.merge(s.error().specName(), 1, Integer::sum);
      }
      StringBuilder detail = new StringBuilder();
      by.forEach((k, v) -> detail.append(detail.length() == 0 ? "" : ", ").append(k).append(' ')
          .append(v));
      b.append(" (").append(detail).append(')');
    }
    return b.toString();
  }

  /**
   * Parses one measurement for the VDAF: 0 or 1 (Prio3Count), an integer in [0,
   * max_measurement] (Prio3Sum), a bucket index in [0, length) (Prio3Histogram), a
   * comma-separated vector of length integers in [0, max_measurement] (Prio3SumVec), of 0 and
   * 1 with at most max_weight ones (Prio3MultihotCountVec) or of length integers >= 0 whose sum
   * is at most max_value (Prio3L1BoundSum).
   */
  static List<BigInteger> parse(Prio3Variant variant, String text) {
    return variant.parseMeasurement(text);
  }

  /**
   * Parses an option's decimal epsilon into micro-epsilons (the attribution draft's privacy
   * budgets), exactly; an error is one line naming the option.
   */
  static org.priodp.aggregator.task.MicroEpsilon epsilon(String option, String text) {
    try {
      return org.priodp.aggregator.task.MicroEpsilon.parseEpsilon(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
    }
  }
}
