package org.priodp.aggregator.client;

import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.HpkeCiphertext;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigList;
import org.priodp.aggregator.dap.InputShareAad;
import org.priodp.aggregator.dap.InputShareEncryption;
import org.priodp.aggregator.dap.PlaintextInputShare;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportExtension;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportMetadata;
import org.priodp.aggregator.dap.ReportUploadStatus;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.Time;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.task.MicroEpsilon;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.task.TimeText;
import org.priodp.vdaf.Prio3;

/**
 * A DAP Client of one task ("Uploading Reports"), speaking the task's {@link
 * org.priodp.aggregator.dap.DapVersion}: fetches and caches the Leader's and the Helper's
 * HpkeConfigList ("HPKE Configuration Request") and picks the first supported config of each,
 * shards each measurement with Prio3 under the context {@code "dap-NN" || task_id} with the
 * report ID as the nonce ("Client Behavior"), seals each aggregator's PlaintextInputShare to it
 * with the InputShareAad over the TaskConfiguration, sets the report time to the current time in
 * time_precision units (rounded down), and POSTs an UploadRequest to the Leader. Reports that the
 * Leader refuses because it does not know the HPKE config ({@code outdated_config} in DAP-18,
 * {@code hpke_unknown_config_id} in DAP-19) are rebuilt once, with fresh report IDs, after the
 * configs are fetched again; the per-report errors that remain are returned. Randomness (report
 * IDs and the VDAF's rand) comes from the injected generator. Thread-safe.
 */
public final class DapClient {
  /** How many reports one UploadRequest carries at most. */
  public static final int DEFAULT_REPORTS_PER_REQUEST = 100;

  /** The HPKE configs the Client seals to: one of the Leader's and one of the Helper's. */
  public record AggregatorConfigs(HpkeConfig leader, HpkeConfig helper) {
    /** Rejects nulls. */
    public AggregatorConfigs {
      Objects.requireNonNull(leader, "leader");
      Objects.requireNonNull(helper, "helper");
    }
  }

  private final TaskParameters task;
  private final HttpClient http;
  private final SecureRandom random;
  private final Clock clock;
  private final Prio3 prio3;
  private final byte[] ctx;
  private final int reportsPerRequest;
  private final Optional<MicroEpsilon> privacyBudget;
  private AggregatorConfigs configs;

  /** Returns a Client of the task with {@link #DEFAULT_REPORTS_PER_REQUEST} reports a request. */
  public DapClient(TaskParameters task, HttpClient http, SecureRandom random, Clock clock) {
    this(task, http, random, clock, DEFAULT_REPORTS_PER_REQUEST);
  }

  /** Returns a Client that puts at most {@code reportsPerRequest} reports in an upload. */
  public DapClient(TaskParameters task, HttpClient http, SecureRandom random, Clock clock,
      int reportsPerRequest) {
    this.task = Objects.requireNonNull(task, "task");
    this.http = Objects.requireNonNull(http, "http");
    this.random = Objects.requireNonNull(random, "random");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (reportsPerRequest < 1) {
      throw new IllegalArgumentException("reportsPerRequest must be >= 1, got "
          + reportsPerRequest);
    }
    this.reportsPerRequest = reportsPerRequest;
    this.prio3 = new Prio3(task.variant());
    this.ctx = task.dapVersion().vdafContext(task.taskId());
    this.privacyBudget = Optional.empty();
  }

  private DapClient(DapClient c, Optional<MicroEpsilon> privacyBudget) {
    this.task = c.task;
    this.http = c.http;
    this.random = c.random;
    this.clock = c.clock;
    this.reportsPerRequest = c.reportsPerRequest;
    this.prio3 = c.prio3;
    this.ctx = c.ctx;
    this.privacyBudget = privacyBudget;
  }

  /**
   * Returns a Client of the same task whose reports state that the Client spent {@code budget} on
   * each (draft-ietf-ppm-dap-attribution-00, section 3): the privacy_budget report extension,
   * under the task's code point, in the report's PUBLIC extensions, so that both aggregators see
   * the same value (the InputShareAad binds it).
   */
  public DapClient withPrivacyBudget(MicroEpsilon budget) {
    return new DapClient(this, Optional.of(Objects.requireNonNull(budget, "budget")));
  }

  /** Returns the privacy budget this Client states in each report, if any. */
  public Optional<MicroEpsilon> privacyBudget() {
    return privacyBudget;
  }

  /** Returns the task. */
  public TaskParameters task() {
    return task;
  }

  /** Returns the cached configs, fetching both aggregators' HpkeConfigList on first use. */
  public synchronized AggregatorConfigs hpkeConfigs() throws IOException, InterruptedException {
    if (configs == null) {
      HpkeConfig leader = fetchConfig("the Leader", task.configuration().leaderAggregatorEndpoint());
      HpkeConfig helper = fetchConfig("the Helper", task.configuration().helperAggregatorEndpoint());
      configs = new AggregatorConfigs(leader, helper);
    }
    return configs;
  }

  /** Forgets the cached configs; the next report fetches them again. */
  public synchronized void invalidateHpkeConfigs() {
    configs = null;
  }

  /**
   * GETs {@code {aggregator}/hpke_config} and returns the first config, in the aggregator's order
   * of preference, that this project can seal to; configs it cannot use (an algorithm it does not
   * know or implement, a key that does not fit the KEM) are skipped, as DAP-18 "HPKE Configuration
   * Request" has it. The Client aborts (an IOException) on an error status, a body that is not an
   * HpkeConfigList, or a list without a usable config, naming why each config is unusable.
   */
  private HpkeConfig fetchConfig(String who, String endpoint)
      throws IOException, InterruptedException {
    URI uri = DapHttp.resource(endpoint, "hpke_config");
    HttpRequest get = HttpRequest.newBuilder(uri).timeout(DapHttp.REQUEST_TIMEOUT).GET().build();
    HttpResponse<byte[]> r = DapHttp.send(http, get, who);
    if (!DapHttp.success(r.statusCode())) {
      throw DapProblemException.of(who + " refused GET " + uri, r);
    }
    HpkeConfigList list;
    try {
      list = HpkeConfigList.decode(r.body());
    } catch (DapDecodeException e) {
      throw new IOException(who + "'s " + uri + " is not a valid HpkeConfigList: "
          + e.getMessage(), e);
    }
    return list.firstSupported().orElseThrow(() -> new IOException(who + " advertises no HPKE"
        + " config with a supported KEM, KDF and AEAD (" + uri + "): " + list.configs().stream()
            .map(c -> "config " + c.id().value() + ": " + c.unsupportedReason().orElseThrow())
            .collect(Collectors.joining("; "))));
  }

  /**
   * Builds one report of the measurement, sealed to {@code configs}, timed now.
   *
   * @throws IllegalArgumentException if the measurement is not valid for the task's VDAF
   */
  public Report report(List<BigInteger> measurement, AggregatorConfigs configs) {
    Objects.requireNonNull(measurement, "measurement");
    Objects.requireNonNull(configs, "configs");
    ReportId id;
    byte[] rand = new byte[prio3.randSize()];
    synchronized (random) {
      id = ReportId.random(random);
      random.nextBytes(rand);
    }
    return report(measurement, id, rand, configs);
  }

  /** Builds the report of a measurement with the given report ID (the nonce) and VDAF rand. */
  private Report report(List<BigInteger> measurement, ReportId id, byte[] rand,
      AggregatorConfigs configs) {
    Prio3.ShardResult shard = prio3.shard(ctx, measurement, id.bytes(), rand);
    long time = TimeText.toTime(clock.instant().getEpochSecond(),
        task.configuration().timePrecision());
    ReportMetadata metadata = new ReportMetadata(id, new Time(time), privacyBudget
        .map(b -> List.of(new ReportExtension(task.attributionCodePoints().privacyBudget(),
            b.encode())))
        .orElse(List.of()));
    byte[] publicShare = shard.publicShare().encode();
    InputShareAad aad = new InputShareAad(task.taskId(), task.configuration(), metadata,
        publicShare);
    try {
      HpkeCiphertext leader = InputShareEncryption.seal(task.dapVersion(), configs.leader(), Role.LEADER, aad,
          new PlaintextInputShare(List.of(), shard.inputShares().get(0).encode()));
      HpkeCiphertext helper = InputShareEncryption.seal(task.dapVersion(), configs.helper(), Role.HELPER, aad,
          new PlaintextInputShare(List.of(), shard.inputShares().get(1).encode()));
      return new Report(metadata, publicShare, leader, helper);
    } catch (HpkeException e) {
      throw new IllegalStateException("cannot seal to the aggregator's HPKE config "
          + e.getMessage(), e);
    }
  }

  /**
   * Builds one encoded-ready report per measurement without sending it, sealed to the
   * aggregators' current HPKE configurations: what a browser hands to the website in the
   * collector_selected batch mode (draft-ietf-ppm-dap-attribution-00 section 4), which uploads
   * the bundle to its collection job ({@link DapCollector#collectBundle}).
   *
   * @throws IllegalArgumentException naming the first invalid measurement
   * @throws IOException if an aggregator's hpke_config cannot be fetched
   */
  public List<Report> reports(List<List<BigInteger>> measurements)
      throws IOException, InterruptedException {
    return build(measurements, hpkeConfigs());
  }

  /**
   * Uploads one report per measurement and returns the reports the Leader refused, in order
   * (DAP-18 "Leader Behavior"); an empty list means every report was accepted. Every measurement
   * is sharded before the first request, so an invalid one (IllegalArgumentException naming its
   * index) uploads nothing. Reports refused for an unknown HPKE config (the version's
   * {@code outdated_config} or {@code hpke_unknown_config_id}) are rebuilt once with
   * freshly fetched configs and uploaded again; their errors are those of the retry.
   *
   * @throws DapProblemException if the Leader refuses a whole request (e.g. unrecognizedTask)
   * @throws IOException if an aggregator cannot be reached or answers something else than DAP
   */
  public UploadErrors upload(List<List<BigInteger>> measurements)
      throws IOException, InterruptedException {
    List<Report> reports = build(measurements, hpkeConfigs());
    List<ReportUploadStatus> first = send(reports);
    List<Integer> outdated = new ArrayList<>();
    Map<ReportId, Integer> index = new HashMap<>();
    for (int i = 0; i < reports.size(); i++) {
      index.put(reports.get(i).reportMetadata().reportId(), i);
    }
    for (ReportUploadStatus s : first) {
      if (s.error() == task.dapVersion().uploadUnknownHpkeConfig() && index.containsKey(s.id())) {
        outdated.add(index.get(s.id()));
      }
    }
    if (outdated.isEmpty()) {
      return new UploadErrors(first);
    }
    invalidateHpkeConfigs();
    List<List<BigInteger>> again = new ArrayList<>();
    for (int i : outdated) {
      again.add(measurements.get(i));
    }
    List<Report> retried = build(again, hpkeConfigs());
    Map<Integer, ReportUploadStatus> retryErrors = new HashMap<>();
    Map<ReportId, Integer> retryIndex = new HashMap<>();
    for (int k = 0; k < retried.size(); k++) {
      retryIndex.put(retried.get(k).reportMetadata().reportId(), outdated.get(k));
    }
    for (ReportUploadStatus s : send(retried)) {
      Integer i = retryIndex.get(s.id());
      if (i != null) {
        retryErrors.put(i, s);
      }
    }
    // the final verdict per measurement, in upload order
    List<ReportUploadStatus> merged = new ArrayList<>();
    Map<Integer, ReportUploadStatus> firstErrors = new HashMap<>();
    for (ReportUploadStatus s : first) {
      Integer i = index.get(s.id());
      if (i != null && s.error() != task.dapVersion().uploadUnknownHpkeConfig()) {
        firstErrors.put(i, s);
      }
    }
    for (int i = 0; i < reports.size(); i++) {
      ReportUploadStatus s = firstErrors.containsKey(i) ? firstErrors.get(i) : retryErrors.get(i);
      if (s != null) {
        merged.add(s);
      }
    }
    return new UploadErrors(merged);
  }

  /**
   * Builds one report per measurement: the report IDs and rands are drawn in order from the
   * injected generator (so a seeded run is reproducible), then the reports are sharded and sealed
   * on all cores. The first invalid measurement, by index, is the IllegalArgumentException.
   */
  private List<Report> build(List<List<BigInteger>> measurements, AggregatorConfigs c) {
    int n = measurements.size();
    ReportId[] ids = new ReportId[n];
    byte[][] rands = new byte[n][prio3.randSize()];
    synchronized (random) {
      for (int i = 0; i < n; i++) {
        ids[i] = ReportId.random(random);
        random.nextBytes(rands[i]);
      }
    }
    Object[] built = new Object[n];
    java.util.stream.IntStream.range(0, n).parallel().forEach(i -> {
      try {
        built[i] = report(Objects.requireNonNull(measurements.get(i), "measurement"), ids[i],
            rands[i], c);
      } catch (IllegalArgumentException e) {
        built[i] = e;
      }
    });
    List<Report> reports = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if (built[i] instanceof IllegalArgumentException e) {
        throw new IllegalArgumentException("measurement " + (i + 1) + ": " + e.getMessage(), e);
      }
      reports.add((Report) built[i]);
    }
    return reports;
  }

  /** POSTs the reports in requests of at most reportsPerRequest; returns all upload errors. */
  private List<ReportUploadStatus> send(List<Report> reports)
      throws IOException, InterruptedException {
    URI uri = DapHttp.resource(task.configuration().leaderAggregatorEndpoint(),
        "tasks/" + task.taskId().toBase64Url() + "/reports");
    List<ReportUploadStatus> errors = new ArrayList<>();
    for (int from = 0; from < reports.size(); from += reportsPerRequest) {
      List<Report> chunk = reports.subList(from, Math.min(reports.size(), from + reportsPerRequest));
      HttpRequest post = DapHttp.uploadPost(uri, chunk);
      String sent = from == 0 ? "" : " (the Leader answered the first " + from + " of "
          + reports.size() + " reports)";
      HttpResponse<byte[]> r;
      try {
        r = DapHttp.send(http, post, "the Leader");
      } catch (IOException e) {
        throw new IOException(e.getMessage() + sent, e);
      }
      if (!DapHttp.success(r.statusCode())) {
        throw DapProblemException.of("the Leader refused the upload" + sent, r);
      }
      errors.addAll(DapHttp.uploadErrors(r, task.dapVersion()));
    }
    return errors;
  }
}
