package org.priodp.conformance.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.priodp.aggregator.cli.PrioDpSubcommand;
import org.priodp.conformance.load.AggregationLoad;
import org.priodp.conformance.load.EndToEndLoad;
import org.priodp.conformance.load.LoadGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Measures the helper's aggregate-share endpoint under a bounded load on loopback. */
@Command(
    name = "loadgen",
    mixinStandardHelpOptions = true,
    description = {
      "Measures the DAP-18 helper's aggregate-share endpoint on loopback.",
      "",
      "Starts the helper in-process on 127.0.0.1 (SQLite, or the store of --db) and measures it:"
          + " first new aggregate shares (noise + HPKE + durable write), then repeats of an"
          + " existing one.",
      "",
      "With --aggregation it plays the Leader instead: it prepares --reports reports (Prio3"
          + " shard, sealed Helper share) in AggregationJobInitReq bodies of --job-size reports"
          + " before the clock starts, posts them with --concurrency jobs in flight, checks every"
          + " answer, and prints reports/s accepted and the ratio (Helper time per report per"
          + " core) / (one bare HPKE open).",
      "",
      "With --end-to-end it runs a Leader and a Helper in-process on loopback (SQLite each, or"
          + " --db-leader and --db-helper), prepares --reports reports with the DAP Client"
          + " before the clock starts, uploads them with --concurrency uploaders and"
          + " --reports-per-request reports a request, collects the batch, and prints uploads/s"
          + " accepted, reports/s aggregated by both aggregators and the time from the last"
          + " upload to the collected result."
    },
    footer = {
      "%nExamples:",
      "  prio-dp loadgen --new 2000 --repeats 20000 --concurrency 8",
      "  prio-dp loadgen --new 500 --repeats 5000 \\",
      "      --db 'jdbc:postgresql://127.0.0.1:5432/priodp?user=priodp'",
      "  prio-dp loadgen --aggregation --vdaf histogram10 --reports 20000 --job-size 1000",
      "  prio-dp loadgen --end-to-end --vdaf histogram10 --reports 100000"
    })
public final class LoadCommand implements PrioDpSubcommand {
  @Spec CommandSpec spec;

  @Option(names = "--new", defaultValue = "2000", paramLabel = "N", description = "New shares to request.")
  int newShares;

  @Option(names = "--repeats", defaultValue = "20000", paramLabel = "N",
      description = "Repeats of an existing share.")
  int repeats;

  @Option(names = "--concurrency", defaultValue = "16", paramLabel = "N",
      description = "Requests in flight.")
  int concurrency;

  @Option(names = "--db", paramLabel = "URL",
      description = "Store to measure: jdbc:postgresql://... (password from PRIODP_DB_PASSWORD)"
          + " or jdbc:sqlite:FILE (default: a fresh SQLite file in a temporary directory).")
  String db;

  @Option(names = "--aggregation",
      description = "Play the Leader against the aggregation jobs instead.")
  boolean aggregation;

  @Option(names = "--vdaf", defaultValue = "histogram10", paramLabel = "VDAF",
      description = "With --aggregation or --end-to-end: histogram10 (Prio3Histogram, length 10, chunk 4) or"
          + " sumvec100 (Prio3SumVec, length 100, max 255, chunk 10).")
  String vdaf;

  @Option(names = "--reports", defaultValue = "20000", paramLabel = "N",
      description = "With --aggregation or --end-to-end: reports to aggregate.")
  int reports;

  @Option(names = "--job-size", defaultValue = "1000", paramLabel = "N",
      description = "With --aggregation or --end-to-end: reports per aggregation job.")
  int jobSize;

  @Option(names = "--end-to-end",
      description = "Upload, aggregate and collect through an in-process Leader and Helper.")
  boolean endToEnd;

  @Option(names = "--reports-per-request", defaultValue = "100", paramLabel = "N",
      description = "With --end-to-end: reports per upload request.")
  int reportsPerRequest;

  @Option(names = "--db-leader", paramLabel = "URL",
      description = "With --end-to-end: the Leader's store (default: a fresh SQLite file).")
  String dbLeader;

  @Option(names = "--db-helper", paramLabel = "URL",
      description = "With --end-to-end: the Helper's store (default: a fresh SQLite file).")
  String dbHelper;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (endToEnd) {
      return endToEnd(out);
    }
    if (aggregation) {
      return aggregation(out);
    }
    List<LoadGenerator.Phase> phases;
    if (db == null) {
      Path dir = Files.createTempDirectory("prio-dp-load");
      phases = LoadGenerator.run(newShares, repeats, concurrency, dir, spec.commandLine().getErr());
    } else {
      if (!db.startsWith("jdbc:postgresql:") && !db.startsWith("jdbc:sqlite:")) {
        throw new IllegalArgumentException("--db: expected jdbc:postgresql://... or jdbc:sqlite:FILE");
      }
      java.util.Properties properties = new java.util.Properties();
      String password = System.getenv("PRIODP_DB_PASSWORD");
      if (password != null && db.startsWith("jdbc:postgresql:")) {
        properties.setProperty("password", password);
      }
      phases = LoadGenerator.run(newShares, repeats, concurrency, db, properties,
          spec.commandLine().getErr());
    }
    out.printf("%-11s %9s %11s %9s %9s %9s %9s%n", "phase", "requests", "in flight", "req/s", "p50 ms",
        "p99 ms", "max ms");
    for (LoadGenerator.Phase p : phases) {
      out.printf("%-11s %9d %11d %9.0f %9.2f %9.2f %9.2f%n", p.phase(), p.requests(), p.concurrency(),
          p.perSecond(), p.quantileMs(0.5), p.quantileMs(0.99), p.quantileMs(1.0));
    }
    out.flush();
    return 0;
  }

  private Integer endToEnd(PrintWriter out) throws Exception {
    java.util.Properties properties = new java.util.Properties();
    for (String u : new String[] {dbLeader, dbHelper}) {
      if (u != null && !u.startsWith("jdbc:postgresql:") && !u.startsWith("jdbc:sqlite:")) {
        throw new IllegalArgumentException("--db-leader, --db-helper: expected"
            + " jdbc:postgresql://... or jdbc:sqlite:FILE");
      }
    }
    String password = System.getenv("PRIODP_DB_PASSWORD");
    if (password != null) {
      properties.setProperty("password", password);
    }
    EndToEndLoad.Result r = EndToEndLoad.run(AggregationLoad.Vdaf.parse(vdaf), reports,
        concurrency, reportsPerRequest, jobSize, dbLeader, dbHelper, properties,
        spec.commandLine().getErr());
    out.printf("vdaf %s, %d reports, %d uploaders, %d reports/request, %d cores%n", vdaf,
        r.reports(), r.uploaders(), r.perRequest(), r.cores());
    out.printf("prepared (before the clock)   %8.1f s%n", r.prepareSeconds());
    out.printf("uploads/s accepted            %8.0f  (%.1f s)%n", r.uploadsPerSecond(),
        r.uploadSeconds());
    out.printf("reports/s aggregated          %8.0f  (%.1f s, first upload accepted to last"
        + " report committed)%n", r.aggregatedPerSecond(), r.aggregateSeconds());
    out.printf("last upload to collected      %8.1f s%n", r.collectSeconds());
    out.flush();
    return 0;
  }

  private Integer aggregation(PrintWriter out) throws Exception {
    String url = db;
    java.util.Properties properties = new java.util.Properties();
    if (url == null) {
      url = "jdbc:sqlite:" + Files.createTempDirectory("prio-dp-load").resolve("load.sqlite")
          .toAbsolutePath();
    } else if (!url.startsWith("jdbc:postgresql:") && !url.startsWith("jdbc:sqlite:")) {
      throw new IllegalArgumentException("--db: expected jdbc:postgresql://... or jdbc:sqlite:FILE");
    } else {
      String password = System.getenv("PRIODP_DB_PASSWORD");
      if (password != null && url.startsWith("jdbc:postgresql:")) {
        properties.setProperty("password", password);
      }
    }
    AggregationLoad.Result r = AggregationLoad.run(AggregationLoad.Vdaf.parse(vdaf), reports,
        jobSize, concurrency, url, properties, spec.commandLine().getErr());
    out.printf("vdaf %s, %d reports in %d jobs, %d in flight, %d cores%n", vdaf, r.reports(),
        r.jobs(), r.concurrency(), r.cores());
    out.printf("reports/s accepted      %10.0f  (%.3f s)%n", r.reportsPerSecond(), r.seconds());
    out.printf("helper us/report x core %10.1f%n", r.perReportCoreMicros());
    out.printf("bare HPKE open us       %10.1f%n", r.bareOpenMicros());
    out.printf("ratio                   %10.2f%n", r.ratio());
    out.flush();
    return 0;
  }
}
