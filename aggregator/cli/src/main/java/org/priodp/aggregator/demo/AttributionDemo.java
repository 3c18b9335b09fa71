package org.priodp.aggregator.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.priodp.aggregator.cli.CollectCommand;
import org.priodp.aggregator.client.DapClient;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.CollectionJobExtension;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportUploadStatus;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.task.AttributionCodePoints;
import org.priodp.aggregator.task.AttributionSettings;
import org.priodp.aggregator.task.MicroEpsilon;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;
import org.priodp.vdaf.dp.StatedGuarantee;

/**
 * {@code demo --attribution}: the Attribution API's flow (draft-ietf-ppm-dap-attribution-00) on
 * loopback. A Prio3L1BoundSum task in the collector_selected batch mode, bound to the budget
 * source {@value #SITE}, whose noise is calibrated to the release's privacy budget
 * (ReportBudgetDiscreteLaplace); simulated browsers ({@link AttributionFlow}) produce conversion
 * reports, each with the privacy_budget it spent, and hand them to the website; the website (the
 * Collector) creates a collection job with min_dp_budget, uploads the bundle to the job's URL and
 * collects the histogram of conversion value per ad source, with intervals computed from the
 * minimum budget. The Leader drops the reports below the minimum and those without a budget.
 */
final class AttributionDemo {
  /** The conversion site: the budget source and the Collector. */
  static final String SITE = "shop.example";
  /** Each browser's budget per site and epoch. */
  static final MicroEpsilon EPOCH_BUDGET = MicroEpsilon.parseEpsilon("1");
  /** One browser in this many is too old to attach privacy_budget. */
  static final int LEGACY_EVERY = 25;

  private AttributionDemo() {
  }

  /** The task's VDAF: the conversion value (at most {@code maxValue}) over {@code sources}. */
  static Prio3Variant.L1BoundSum variant(int sources, long maxValue) {
    int bits = 64 - Long.numberOfLeadingZeros(maxValue);
    int chunk = Math.max(1, (int) Math.round(Math.sqrt((double) (sources + 1) * bits)));
    return new Prio3Variant.L1BoundSum(sources, BigInteger.valueOf(maxValue), chunk);
  }

  /** The task extension binding the task to the site's budget. */
  static AttributionSettings settings() {
    return new AttributionSettings(AttributionCodePoints.DEFAULTS, java.util.Optional.empty(),
        java.util.Optional.of(SITE));
  }

  /** Runs the flow against started servers; returns normally once the table is printed. */
  static void run(PrintWriter out, PrintWriter err, DemoCommand.Servers s,
      JdbcDatastore leaderStore, int browsers, MicroEpsilon minimum, long seed)
      throws IOException, InterruptedException {
    Prio3Variant.L1BoundSum variant = (Prio3Variant.L1BoundSum) s.task().parameters().variant();
    int sources = variant.length();
    out.printf("  site %s: each browser has epsilon %s per epoch for it and splits it evenly"
        + " over its conversions (1 to 4); one browser in %d is too old to state a budget%n",
        SITE, EPOCH_BUDGET.toDecimal(), LEGACY_EVERY);
    List<AttributionFlow.Conversion> conversions = AttributionFlow.conversions(browsers,
        sources, variant.maxValue().longValueExact(), EPOCH_BUDGET, LEGACY_EVERY, seed);
    Map<String, Integer> bySpend = new TreeMap<>();
    for (AttributionFlow.Conversion c : conversions) {
      bySpend.merge(c.statesBudget() ? "epsilon " + c.spent().toDecimal() : "no privacy_budget",
          1, Integer::sum);
    }
    out.printf("  browsers: %d browsers made %d conversion reports (%s)%n", browsers,
        conversions.size(), String.join(", ", bySpend.entrySet().stream()
            .map(e -> e.getValue() + " with " + e.getKey()).toList()));
    out.flush();

    // the browsers build their reports and hand them to the website
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    SecureRandom random = new SecureRandom();
    DapClient plain = new DapClient(s.task().parameters(), http, random, Clock.systemUTC());
    DemoProgress building = new DemoProgress(err, "browsers", conversions.size());
    List<Report> bundle = new ArrayList<>(conversions.size());
    long[] truth = new long[sources];
    Map<MicroEpsilon, DapClient> clients = new TreeMap<>();
    for (int i = 0; i < conversions.size(); i++) {
      AttributionFlow.Conversion c = conversions.get(i);
      DapClient client = !c.statesBudget() ? plain
          : clients.computeIfAbsent(c.spent(), plain::withPrivacyBudget);
      bundle.add(client.reports(List.of(c.histogram())).get(0));
      if (c.statesBudget() && c.spent().compareTo(minimum) >= 0) {
        for (int k = 0; k < sources; k++) {
          truth[k] += c.histogram().get(k).longValueExact();
        }
      }
      building.update(i + 1);
    }
    building.finish();

    // the website: one collection job with min_dp_budget, the bundle uploaded to its URL
    AttributionCodePoints codes = s.task().parameters().attributionCodePoints();
    CollectionJobReq req = new CollectionJobReq(new Query.CollectorSelected(
        codes.collectorSelected()), new byte[0], List.of(new CollectionJobExtension(
        codes.minDpBudget(), minimum.encode())));
    out.printf("  website: a collection job with min_dp_budget %s; the noise is calibrated to"
        + " it: %s, per aggregator%n", minimum.toDecimal(),
        s.leaderTask().mechanismAt(minimum.epsilon()).describeNoise());
    out.flush();
    DapCollector collector = DapCollector.of(s.task().collectorFile(), http,
        Duration.ofMinutes(30));
    DemoProgress collecting = new DemoProgress(err, "collecting", 1);
    DapCollector.BundleCollection r;
    try {
      r = collector.collectBundle(req, bundle, (poll, wait, waited) -> collecting.update(0));
    } catch (IOException | RuntimeException e) {
      collecting.abandon();
      throw e;
    }
    collecting.finish();
    Map<String, Integer> refused = new TreeMap<>();
    for (ReportUploadStatus st : r.refused()) {
      refused.merge(st.error().specName(), 1, Integer::sum);
    }
    out.printf("  the Leader took %d reports into the job's batch and refused %d (%s: below"
        + " the minimum or without privacy_budget)%n",
        bundle.size() - r.refused().size(), r.refused().size(), refused.isEmpty() ? "none"
            : String.join(", ", refused.entrySet().stream().map(e -> e.getValue() + " "
                + e.getKey()).toList()));
    out.printf("  collector: %d reports in the batch, both aggregate shares opened%n",
        r.result().reportCount());
    DemoTable.print(out, truth, r.result().result(), "source", "true value", "noisy value");
    out.printf("  %s%n", r.result().result().noiseNote());
    // the exact guarantee of the noise the servers drew: the sampler of the task they serve
    StatedGuarantee guarantee = StatedGuarantee.of(
        s.leaderTask().mechanismAt(minimum.epsilon()));
    for (String line : CollectCommand.privacy(guarantee, r.result())) {
      out.printf("  %s%n", line);
    }
    out.printf("  each counted report stated at least epsilon %s, the epsilon the noise is"
        + " calibrated to; a browser's reports together spend at most its budget of %s per site"
        + " and epoch%n", minimum.toDecimal(), EPOCH_BUDGET.toDecimal());
    out.flush();
  }

  /** The task's DP strategy: epsilon from each release's budget. */
  static DpStrategy strategy() {
    return new DpStrategy.ReportBudgetDiscreteLaplace();
  }

  /** The task's batch mode. */
  static BatchMode batchMode() {
    return BatchMode.COLLECTOR_SELECTED;
  }

  /** The sensitivity rule. */
  static SensitivityRule rule() {
    return SensitivityRule.parse("--sensitivity-rule", "priodp");
  }

  /** The DAP version: the attribution draft is written against DAP-19. */
  static DapVersion version() {
    return DapVersion.DAP_19;
  }
}
