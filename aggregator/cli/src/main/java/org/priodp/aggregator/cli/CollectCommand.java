package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.priodp.aggregator.client.CollectionResult;
import org.priodp.aggregator.client.CollectorTask;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.client.DapProblemException;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.task.TimeText;
import org.priodp.aggregator.taskfile.CollectorTaskFile;
import java.util.ArrayList;
import java.util.List;
import org.priodp.aggregator.task.LedgerHeader;
import org.priodp.vdaf.dp.Prio3DpMechanism;
import org.priodp.vdaf.dp.StatedGuarantee;
import org.priodp.vdaf.dp.UnshardResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code collect}: the Collector of DAP-18 ("Collecting Results") from collector.json: starts a
 * collection job at the Leader, polls it with a progress line on stderr, opens both aggregate
 * shares, decodes the noised aggregate and prints it with its intervals (a table, JSON or CSV).
 */
@Command(
    name = "collect",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Collects a batch from the Leader and prints it with its intervals.",
      "Starts a collection job in the DAP draft collector.json names (dap_version) with the"
          + " Collector's token, polls it as the Leader's Retry-After says, opens the Leader's and the Helper's aggregate shares with the"
          + " Collector's private key, unshards them and prints each value with the interval of"
          + " its noise. A refused or failed job prints its DAP error type."},
    footer = {"%nWhile it waits, collect prints why when that changes: the batch interval is not"
        + " over yet (by this machine's clock), or the Leader has not finished the batch"
        + " (prio-dp status on the Leader says why: reports not yet aggregated, fewer than"
        + " min_batch_size, the Helper). A time_interval job that is not ready holds its"
        + " interval: an overlapping collect is refused (batchOverlap) until it is ready or"
        + " deleted.",
      "%nExample:",
      "  prio-dp collect --task task1/collector.json --interval 2026-01-01T00:00:00Z/86400",
      "  prio-dp collect --task task1/collector.json --delete Vz8Xr0c6mC3RAfZkxJxV3g",
      "  # collector_selected: create a job, upload the bundle to it, collect exactly those",
      "  prio-dp collect --task site/collector.json --reports bundle.txt"})
public final class CollectCommand implements PrioDpSubcommand {
  /** The prio-dp problem type of a release the task's privacy budget cannot pay for. */
  static final String PRIVACY_BUDGET_EXHAUSTED = "urn:priodp:problem:privacyBudgetExhausted";

  @Spec
  CommandSpec spec;

  @Option(names = "--task", required = true, paramLabel = "FILE",
      description = "The Collector's task file (collector.json from task new).")
  Path task;

  @Option(names = "--interval", paramLabel = "INTERVAL",
      description = "The batch interval of a time_interval task, START/DURATION: START in RFC"
          + " 3339 or seconds since the epoch, DURATION in seconds, both multiples of the time"
          + " precision.")
  String interval;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
      description = "table, json or csv.")
  String format;

  @Option(names = "--confidence", paramLabel = "C", defaultValue = "0.95",
      description = "Coverage of the intervals, in (0, 1).")
  String confidence;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "3600",
      description = "How long to wait for the job to be ready, Leader outages included"
          + " (a refused or reset connection, a timeout or a 5xx is retried until then).")
  String timeout;

  @Option(names = "--min-dp-budget", paramLabel = "EPSILON",
      description = "Adds the attribution draft's min_dp_budget collection job extension"
          + " (decimal epsilon, e.g. 0.5): the aggregators refuse a batch holding a report with"
          + " less privacy_budget, and a task whose dp_strategy is ReportBudgetDiscreteLaplace or"
          + " ReportBudgetDiscreteGaussian (where it is required) is noised and decoded at this"
          + " epsilon.")
  String minDpBudget;

  @Option(names = "--reports", paramLabel = "FILE",
      description = "For a collector_selected task: the bundle of reports (one base64url DAP"
          + " Report per line, as upload --output writes it) to upload to the new collection"
          + " job before its first poll; the batch is exactly these reports (the Leader closes"
          + " it at the first poll).")
  Path reports;

  @Option(names = "--delete", paramLabel = "JOB",
      description = "Instead of collecting, delete the collection job JOB (its URL or its ID,"
          + " as a timed-out collect prints it): the Leader stops waiting for its batch and the"
          + " interval is free for a new collect.")
  String delete;

  @Override
  public Integer call() throws IOException, InterruptedException {
    String fmt = format.strip().toLowerCase(java.util.Locale.ROOT);
    if (!fmt.equals("table") && !fmt.equals("json") && !fmt.equals("csv")) {
      throw new IllegalArgumentException("--format: expected table, json or csv, got '" + format
          + "'");
    }
    double c = SensitivityCommand.parseConfidence(confidence);
    long wait = TaskNewCommand.unsigned("--timeout", timeout);
    CollectorTask file = CollectorTaskFile.read(task);
    warnIfReadableByOthers(task, spec.commandLine().getErr());
    TaskParameters p = file.parameters();
    DapCollector collector = new DapCollector(p, file.collectorAuthToken(), file.hpkeConfig(),
        file.hpkeKey(), HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(),
        d -> Thread.sleep(d.toMillis()), Duration.ofSeconds(wait), c)
        .retryingTransientFailures();
    if (minDpBudget != null) {
      org.priodp.aggregator.task.MicroEpsilon min = UploadCommand.epsilon("--min-dp-budget",
          minDpBudget);
      try {
        collector = collector.withMinDpBudget(min);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--min-dp-budget: " + e.getMessage(), e);
      }
    } else if (delete == null && p.dpStrategy().budgetFromReports()) {
      throw new IllegalArgumentException("--min-dp-budget: required for this task: its"
          + " dp_strategy " + p.dpStrategy().name() + " noises each release at the epsilon the"
          + " collection job's min_dp_budget gives, e.g. --min-dp-budget 0.5");
    }
    if (delete != null) {
      return delete(collector, delete.strip());
    }
    Query query = query(p, interval);
    PrintWriter err = spec.commandLine().getErr();
    Waiting progress = new Waiting(err, query, p.configuration().timePrecision(),
        java.time.Clock.systemUTC());
    CollectionResult result;
    try {
      result = collectorSelected(query) ? bundle(collector, query, progress, err)
          : collector.collect(query, progress);
    } catch (DapProblemException e) {
      progress.endLine();
      String hint = e.error().orElse(null) == org.priodp.aggregator.dap.DapError.BATCH_OVERLAP
          ? "; a collection job that is not ready holds an overlapping interval: on the Leader,"
              + " prio-dp collection-jobs --config LEADER_TASK_FILE list shows it and delete"
              + " frees it"
          : e.type().equals(PRIVACY_BUDGET_EXHAUSTED) ? "; the task's privacy budget cannot pay"
              + " for this batch (nothing was drawn). On the Leader, prio-dp budget --config"
              + " LEADER_TASK_FILE lists the releases and what a batch starting now could still"
              + " spend; a budget with a window frees up as releases leave it, one over the"
              + " task's life never does (docs/PRIVACY.md)" : "";
      if (e.status() >= 500) {
        throw new CliIo.Failure(e.getMessage() + hint, null);
      }
      throw new IllegalArgumentException(e.getMessage() + hint, e);
    } catch (DapCollector.NotReadyException e) {
      progress.endLine();
      String id = e.job().getPath().substring(e.job().getPath().lastIndexOf('/') + 1);
      throw new CliIo.Failure(e.getMessage() + "; " + progress.lastReason() + (query
          instanceof Query.TimeInterval ? ". The job holds its batch interval (an overlapping"
              + " collect is refused with batchOverlap) until it is ready or deleted; free it"
              + " with: prio-dp collect --task " + task + " --delete=" + id
              + " (or on the Leader: prio-dp collection-jobs --config LEADER_TASK_FILE delete -- "
              + id + "). Collecting the same interval again resumes this job" : ""), null);
    } catch (IOException e) {
      progress.endLine();
      throw new CliIo.Failure(e.getMessage(), e.getCause());
    }
    progress.endLine();
    err.flush();
    PrintWriter out = spec.commandLine().getOut();
    Prio3DpMechanism m = collector.mechanism();
    StatedGuarantee guarantee = StatedGuarantee.of(file.mechanism(collector.minDpBudget()));
    collector.minDpBudget().ifPresent(b -> err.println("collect: min_dp_budget " + b.toDecimal()
        + (p.dpStrategy().budgetFromReports() ? ": the release is noised at epsilon "
            + b.toDecimal() : ": every report counted carries at least this privacy_budget")));
    err.flush();
    switch (fmt) {
      case "json" -> out.println(json(p, result, m, guarantee));
      case "csv" -> {
        csv(out, result.result());
        privacy(guarantee, result).forEach(l -> err.println("collect: " + l));
        err.flush();
      }
      default -> table(out, p, result, guarantee);
    }
    out.flush();
    return 0;
  }

  /** Returns whether the query is collector_selected; refuses --reports for another mode. */
  private boolean collectorSelected(Query query) {
    boolean cs = query instanceof Query.CollectorSelected;
    if (cs && reports == null) {
      throw new IllegalArgumentException("--reports: a collector_selected task collects the"
          + " reports the Collector uploads to the job; give the bundle, e.g. --reports"
          + " bundle.txt (upload --output writes one)");
    }
    if (!cs && reports != null) {
      throw new IllegalArgumentException("--reports: only a collector_selected task takes a"
          + " bundle of reports; this task's Clients upload to the Leader themselves");
    }
    return cs;
  }

  /** Creates the job, uploads --reports to it, collects; says on stderr what was refused. */
  private CollectionResult bundle(DapCollector collector, Query query,
      DapCollector.Progress progress, PrintWriter err) throws IOException, InterruptedException {
    List<org.priodp.aggregator.dap.Report> bundle = ReportBundle.read(reports);
    DapCollector.BundleCollection b = collector.collectBundle(collector.requestFor(query),
        bundle, progress);
    err.println("collect: uploaded " + UploadCommand.summary(bundle.size(),
        new org.priodp.aggregator.dap.UploadErrors(b.refused())));
    return b.result();
  }

  /** {@code --delete JOB}: deletes the collection job by URL or ID. */
  private int delete(DapCollector collector, String job) throws IOException, InterruptedException {
    java.net.URI uri;
    if (job.contains("/")) {
      try {
        uri = java.net.URI.create(job);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--delete: not a URL: " + job, e);
      }
      java.net.URI mine = collector.jobUri(org.priodp.aggregator.dap.CollectionJobId
          .fromBase64Url(job.substring(job.lastIndexOf('/') + 1)));
      if (!mine.equals(uri)) {
        throw new IllegalArgumentException("--delete: " + job + " is not a collection job of"
            + " this task at its Leader (" + mine + ")");
      }
    } else {
      try {
        uri = collector.jobUri(org.priodp.aggregator.dap.CollectionJobId.fromBase64Url(job));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--delete: " + e.getMessage(), e);
      }
    }
    try {
      collector.delete(uri);
    } catch (DapProblemException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (IOException e) {
      throw new CliIo.Failure(e.getMessage(), e.getCause());
    }
    spec.commandLine().getOut().println("deleted collection job " + uri
        + "; its batch interval is free for a new collect");
    spec.commandLine().getOut().flush();
    return 0;
  }

  /**
   * The progress of a collection on stderr: a line that counts the wait, one line whenever the
   * reason it waits changes (as far as the Collector can tell: DAP's CollectionJobResp carries no
   * reason), and one line per Leader outage and its end.
   */
  static final class Waiting implements DapCollector.Progress {
    private final PrintWriter err;
    private final Query query;
    private final long precision;
    private final java.time.Clock clock;
    private String reason = "";
    boolean shown;

    Waiting(PrintWriter err, Query query, long precision, java.time.Clock clock) {
      this.err = err;
      this.query = query;
      this.precision = precision;
      this.clock = clock;
    }

    /** Returns why the job waits as far as the Collector can tell (its own clock). */
    String reason() {
      if (query instanceof Query.TimeInterval t) {
        Interval i = t.batchInterval();
        Instant end;
        try {
          end = Instant.ofEpochSecond(Math.multiplyExact(i.end().value(), precision));
        } catch (ArithmeticException | java.time.DateTimeException e) {
          end = Instant.MAX;
        }
        if (clock.instant().isBefore(end)) {
          return "waiting: the batch interval is not over until " + end
              + " (by this machine's clock)";
        }
        return "waiting: the Leader has not finished the batch (reports not yet aggregated,"
            + " fewer than min_batch_size, or the Helper); prio-dp status on the Leader says why";
      }
      if (query instanceof Query.CollectorSelected) {
        return "waiting: the Leader is aggregating the uploaded reports (the first poll closed"
            + " the batch); prio-dp status on the Leader says why";
      }
      return "waiting: the Leader has no batch of min_batch_size reports ready yet; prio-dp"
          + " status on the Leader says why";
    }

    /** Returns the last reason shown, or the current one. */
    String lastReason() {
      return reason.isEmpty() ? reason() : reason;
    }

    @Override
    public void notReady(int poll, Duration wait, Duration waited) {
      String now = reason();
      if (!now.equals(reason)) {
        endLine();
        err.println("collect: " + now);
        reason = now;
      }
      shown = true;
      err.printf("\r  waiting for the collection job: %d s so far, next poll in %d s ",
          waited.toSeconds(), wait.toSeconds());
      err.flush();
    }

    @Override
    public void unavailable(String problem, Duration wait, Duration waited) {
      endLine();
      err.println("collect: the Leader is unavailable (" + problem + "); retrying until"
          + " --timeout");
      err.flush();
    }

    @Override
    public void available(Duration outage) {
      endLine();
      err.println("collect: the Leader answers again after " + outage.toSeconds() + " s");
      err.flush();
    }

    /** Ends the counting line, if one is shown. */
    void endLine() {
      if (shown) {
        err.println();
        shown = false;
      }
    }
  }

  /**
   * Warns on stderr when the Collector's file, which holds its private key and token, can be read
   * by the group or others (task new writes it with mode 0600).
   */
  static void warnIfReadableByOthers(Path file, PrintWriter err) {
    try {
      var mode = java.nio.file.Files.getPosixFilePermissions(file);
      if (mode.contains(java.nio.file.attribute.PosixFilePermission.GROUP_READ)
          || mode.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ)) {
        err.println("collect: warning: " + file + " is readable by other users (mode "
            + java.nio.file.attribute.PosixFilePermissions.toString(mode) + ") but holds the"
            + " Collector's private key and token: chmod 600 " + file);
        err.flush();
      }
    } catch (UnsupportedOperationException | IOException e) {
      // no POSIX permissions on this file system: nothing to check
    }
  }

  /** Returns the query: a time interval for a time_interval task, else leader-selected. */
  static Query query(TaskParameters p, String interval) {
    if (p.configuration().batchMode() == BatchMode.TIME_INTERVAL) {
      if (interval == null) {
        throw new IllegalArgumentException("--interval: a time_interval task needs the batch"
            + " interval, e.g. --interval 2026-01-01T00:00:00Z/86400");
      }
      return new Query.TimeInterval(interval("--interval", interval,
          p.configuration().timePrecision()));
    }
    if (interval != null) {
      throw new IllegalArgumentException("--interval: a " + p.configuration().batchMode()
          .specName() + " task collects the batch the Leader or the Collector selects; give no"
          + " interval");
    }
    return p.configuration().batchMode() == BatchMode.COLLECTOR_SELECTED
        ? new Query.CollectorSelected(p.attributionCodePoints().collectorSelected())
        : new Query.LeaderSelected();
  }

  /**
   * Parses START/DURATION (START in RFC 3339 or seconds since the epoch, DURATION in seconds) into
   * a DAP-18 Interval in units of {@code precision} seconds, exactly as the task file converts
   * times ({@link TimeText}): both must be multiples of the precision.
   */
  static Interval interval(String option, String text, long precision) {
    int slash = text.lastIndexOf('/');
    if (slash <= 0 || slash == text.length() - 1) {
      throw new IllegalArgumentException(option + ": expected START/DURATION such as"
          + " 2026-01-01T00:00:00Z/86400, got '" + text + "'");
    }
    long start = TimeText.seconds(text.substring(0, slash), option + " START");
    String d = text.substring(slash + 1).strip();
    if (!d.matches("[0-9]{1,18}")) {
      throw new IllegalArgumentException(option + " DURATION: expected seconds, got '" + d + "'");
    }
    return TimeText.toUnits(start, Long.parseLong(d), precision, option);
  }

  private static String time(long units, long precision) {
    return Instant.ofEpochSecond(Math.multiplyExact(units, precision)).toString();
  }

  private static void table(PrintWriter out, TaskParameters p, CollectionResult c,
      StatedGuarantee guarantee) {
    UnshardResult r = c.result();
    long precision = p.configuration().timePrecision();
    Interval i = c.interval();
    out.printf("task %s: %d reports from %s to %s, %s%n", p.taskId().toBase64Url(),
        c.reportCount(), time(i.start().value(), precision),
        time(i.start().value() + i.duration().value(), precision), p.variant().describe());
    out.printf("%n  %6s  %12s  %-28s%n", "index", "estimate",
        String.format("%.0f%% interval", 100 * r.confidence()));
    for (int k = 0; k < r.estimates().size(); k++) {
      out.printf("  %6d  %12s  %-28s%n", k, r.estimates().get(k),
          "[" + r.lower(k) + ", " + r.upper(k) + "]");
    }
    out.printf("  %s%n", r.noiseNote());
    for (String line : privacy(guarantee, c)) {
      out.printf("  %s%n", line);
    }
  }

  /**
   * Returns the lines that say what the release guarantees and what it cost (docs/PRIVACY.md
   * "What collect prints"): the guarantee per report, exactly, with the sampler the Collector's
   * file names (docs/DAP.md "Timing-hardened noise"); whether this collection was a repeat of a
   * batch released before (which draws nothing and costs nothing more); and the Leader's ledger
   * ({@link LedgerHeader}): what the release cost a privacy unit, what is spent and what is left.
   */
  public static List<String> privacy(StatedGuarantee guarantee, CollectionResult c) {
    List<String> lines = new ArrayList<>();
    lines.add("guarantee of this release: " + guarantee.explain());
    if (guarantee.budget().isEmpty()) {
      return lines;
    }
    if (c.releasedBefore()) {
      lines.add("a repeat: the Leader had released this batch before this collect began; it"
          + " drew no noise again and this collection cost nothing more");
    }
    lines.add(c.ledger().map(h -> "privacy ledger (the Leader's, when it answered): "
        + h.describe() + (c.releasedBefore() ? " (the cost is the batch's first release)" : ""))
        .orElse("privacy ledger: the Leader did not report its ledger (prio-dp budget on the"
            + " Leader prints it)"));
    return lines;
  }

  /** The privacy part of the JSON output: the guarantee, repeat or not, and the Leader's ledger. */
  private static Json privacyJson(StatedGuarantee g, CollectionResult c) {
    Json o = Json.object()
        .put("guarantee", g.text())
        .put("sampler", g.sampler())
        .put("total_variation", g.totalVariation().toString());
    if (g.budget().orElse(null) instanceof org.priodp.noise.Budget.PureDp) {
      o.put("delta", g.delta().toString());
    }
    o.put("released_before", c.releasedBefore());
    if (c.ledger().isPresent()) {
      LedgerHeader h = c.ledger().get();
      Json l = Json.object()
          .put("measure", h.measure())
          .put("cost", h.cost().toString())
          .put("spent", h.spent().toString());
      h.remaining().ifPresent(r -> l.put("remaining", r.toString()));
      h.cap().ifPresent(cap -> l.put("cap", cap));
      o.put("ledger", l);
    }
    return o;
  }

  private static void csv(PrintWriter out, UnshardResult r) {
    out.println("index,estimate,lower,upper");
    for (int k = 0; k < r.estimates().size(); k++) {
      out.println(k + "," + r.estimates().get(k) + "," + r.lower(k) + "," + r.upper(k));
    }
  }

  private static String json(TaskParameters p, CollectionResult c, Prio3DpMechanism m,
      StatedGuarantee guarantee) {
    UnshardResult r = c.result();
    long precision = p.configuration().timePrecision();
    java.util.List<BigInteger> lo = new java.util.ArrayList<>();
    java.util.List<BigInteger> hi = new java.util.ArrayList<>();
    for (int k = 0; k < r.estimates().size(); k++) {
      lo.add(r.lower(k));
      hi.add(r.upper(k));
    }
    Json interval = Json.object()
        .put("start", time(c.interval().start().value(), precision))
        .put("end", time(c.interval().start().value() + c.interval().duration().value(),
            precision));
    Json noise = Json.object()
        .put("noised_shares", r.noisedShares())
        .put("per_aggregator", m.describeNoise())
        .put("confidence", r.confidence())
        .put("half_width", r.halfWidth())
        .put("note", r.noiseNote());
    return Json.object()
        .put("task_id", p.taskId().toBase64Url())
        .put("vdaf", p.variant().describe())
        .put("strategy", p.dpStrategy().describe())
        .put("report_count", c.reportCount())
        .put("interval", interval)
        .putNumbers("aggregate", r.estimates())
        .putPairs("intervals", lo, hi)
        .put("noise", noise)
        .put("privacy", privacyJson(guarantee, c))
        .toString();
  }
}
