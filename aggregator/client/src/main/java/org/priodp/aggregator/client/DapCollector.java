package org.priodp.aggregator.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregateShareAad;
import org.priodp.aggregator.dap.AggregateShareEncryption;
import org.priodp.aggregator.dap.CollectionJobExtension;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.CollectionJobResp;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.HpkeCiphertext;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportUploadStatus;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.LedgerHeader;
import org.priodp.aggregator.task.MicroEpsilon;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.DpUnsharder;
import org.priodp.vdaf.dp.Prio3DpMechanism;

/**
 * A DAP-18 Collector of one task ("Collecting Results"): POSTs a CollectionJobReq to {@code
 * {leader}/tasks/{task-id}/collection_jobs} with its bearer token ("Collection Job
 * Initialization"), follows the Location the Leader answers (only on the Leader's own origin, so
 * the token never goes elsewhere), polls it with GET while the answer is empty, waiting what each
 * Retry-After says ("Asynchronous Request Handling"), then opens the Leader's and the Helper's
 * HpkeCiphertext with its private key and the AggregateShareAad over the task configuration and
 * the exact request ("Aggregate Share Encryption"), unshards with Prio3 and decodes with the
 * DP-aware collector, which lifts each noised coordinate to the integers and gives its interval
 * ("Collection Job Finalization"). {@link #retryingTransientFailures} retries a connection
 * refused or reset, a timeout or a 5xx answer with backoff until the timeout (the POST and GET
 * are idempotent), the {@link Progress} hearing of each outage once. An error status becomes a {@link DapProblemException} naming
 * the DAP error type. Immutable; the waiting is injected ({@link Sleeper}).
 */
public final class DapCollector {
  /** Waits between polls; tests inject one that does not sleep. */
  @FunctionalInterface
  public interface Sleeper {
    /** Waits for the duration. */
    void sleep(Duration d) throws InterruptedException;
  }

  /** Told before each wait, so a command line can show progress. */
  @FunctionalInterface
  public interface Progress {
    /**
     * The job was not ready at poll {@code poll} (0 for the creating POST); the Collector waits
     * {@code wait}, having waited {@code waited} so far.
     */
    void notReady(int poll, Duration wait, Duration waited);

    /**
     * The Leader could not be reached or answered 5xx ({@code problem}): the first failure of an
     * outage; the Collector retries after {@code wait}, having waited {@code waited} so far.
     */
    default void unavailable(String problem, Duration wait, Duration waited) {
    }

    /** The Leader answers again after an outage that began {@code outage} ago. */
    default void available(Duration outage) {
    }
  }

  /**
   * The collection job was not ready within the timeout (DAP-18 "Collection Job
   * Initialization"); {@link #job()} is its URL, which the Collector may DELETE ({@link
   * DapCollector#delete}) to free its batch.
   */
  public static final class NotReadyException extends IOException {
    private static final long serialVersionUID = 1L;
    private final transient URI job;

    NotReadyException(String message, URI job) {
      super(message);
      this.job = job;
    }

    /** Returns the collection job's URL. */
    public URI job() {
      return job;
    }
  }

  /** The first wait after a transient failure; it doubles up to {@link #MAX_BACKOFF}. */
  public static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
  /** The longest wait between retries of a transient failure. */
  public static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

  /** The wait between polls when the Leader sends no Retry-After. */
  public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

  private final TaskParameters task;
  private final AuthToken token;
  private final HpkeConfig hpkeConfig;
  private final HpkeKeyPair hpkeKey;
  private final HttpClient http;
  private final Sleeper sleeper;
  private final Duration timeout;
  private final double confidence;
  private final boolean retryTransient;
  private final Optional<MicroEpsilon> minDpBudget;

  /**
   * Returns a Collector that gives up after waiting {@code timeout} in total and reports
   * intervals of the given coverage in (0, 1).
   */
  public DapCollector(TaskParameters task, AuthToken token, HpkeConfig hpkeConfig,
      HpkeKeyPair hpkeKey, HttpClient http, Sleeper sleeper, Duration timeout, double confidence) {
    this.task = Objects.requireNonNull(task, "task");
    this.token = Objects.requireNonNull(token, "token");
    this.hpkeConfig = Objects.requireNonNull(hpkeConfig, "hpkeConfig");
    this.hpkeKey = Objects.requireNonNull(hpkeKey, "hpkeKey");
    this.http = Objects.requireNonNull(http, "http");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must be >= 0");
    }
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must be in (0, 1), got " + confidence);
    }
    this.confidence = confidence;
    this.retryTransient = false;
    this.minDpBudget = Optional.empty();
  }

  private DapCollector(DapCollector c, boolean retryTransient) {
    this(c, retryTransient, c.minDpBudget);
  }

  private DapCollector(DapCollector c, boolean retryTransient, Optional<MicroEpsilon> minDpBudget) {
    this.minDpBudget = minDpBudget;
    this.task = c.task;
    this.token = c.token;
    this.hpkeConfig = c.hpkeConfig;
    this.hpkeKey = c.hpkeKey;
    this.http = c.http;
    this.sleeper = c.sleeper;
    this.timeout = c.timeout;
    this.confidence = c.confidence;
    this.retryTransient = retryTransient;
  }

  /**
   * Returns this Collector retrying transient failures (a connection refused or reset, a
   * timeout, a 5xx) with backoff until the timeout; without it, the first such failure ends
   * the collection.
   */
  public DapCollector retryingTransientFailures() {
    return new DapCollector(this, true);
  }

  /**
   * Returns this Collector asking for {@code minimum} in the min_dp_budget collection job
   * extension of its jobs (draft-ietf-ppm-dap-attribution-00, section 5): the aggregators refuse
   * a batch holding a report with less privacy_budget, and a task whose strategy takes epsilon
   * from the reports is noised, and decoded here, at epsilon = {@code minimum}.
   */
  public DapCollector withMinDpBudget(MicroEpsilon minimum) {
    Objects.requireNonNull(minimum, "minimum");
    if (minimum.micros() == 0) {
      throw new IllegalArgumentException("min_dp_budget must be at least one micro-epsilon");
    }
    return new DapCollector(this, retryTransient, Optional.of(minimum));
  }

  /** Returns the min_dp_budget this Collector asks for, if any. */
  public Optional<MicroEpsilon> minDpBudget() {
    return minDpBudget;
  }

  /**
   * Returns the mechanism the aggregators noise this Collector's releases with: the task's, or
   * for a report-budget strategy its strategy at min_dp_budget.
   *
   * @throws IllegalStateException for a report-budget task without {@link #withMinDpBudget}
   */
  public Prio3DpMechanism mechanism() {
    return mechanism(minDpBudget);
  }

  /**
   * Returns the mechanism the aggregators noise the release of {@code req} with: for a
   * report-budget task, its strategy at the min_dp_budget of the request's extensions.
   *
   * @throws IllegalStateException for a report-budget task whose request has no min_dp_budget
   */
  public Prio3DpMechanism mechanism(CollectionJobReq req) {
    int type = task.attributionCodePoints().minDpBudget();
    return mechanism(req.extensions().stream().filter(e -> e.extensionType() == type)
        .findFirst().map(e -> MicroEpsilon.decode(e.extensionData(), "min_dp_budget")));
  }

  private Prio3DpMechanism mechanism(Optional<MicroEpsilon> minimum) {
    DpStrategy open = task.dpStrategy();
    DpStrategy strategy = !open.budgetFromReports() ? open
        : open.forRelease(minimum.filter(m -> m.micros() > 0).orElseThrow(
            () -> new IllegalStateException(open.name() + " takes epsilon from the reports: give"
                + " the collection job a min_dp_budget to know the release's epsilon")).epsilon());
    return Prio3DpMechanism.of(task.variant(), strategy, task.sensitivityRule());
  }

  /** Returns the collection job request of a query with this Collector's extensions. */
  public CollectionJobReq requestFor(Query query) {
    return new CollectionJobReq(query, new byte[0], minDpBudget.map(m -> List.of(
        new CollectionJobExtension(task.attributionCodePoints().minDpBudget(), m.encode())))
        .orElse(List.of()));
  }

  /** Returns a Collector of a collector file's task, sleeping for real, 95% intervals. */
  public static DapCollector of(CollectorTask file, HttpClient http, Duration timeout) {
    return new DapCollector(file.parameters(), file.collectorAuthToken(), file.hpkeConfig(),
        file.hpkeKey(), http, d -> Thread.sleep(d.toMillis()), timeout,
        DpUnsharder.DEFAULT_CONFIDENCE);
  }

  /** Returns the collection job request of a query: no aggregation parameter (Prio3), no extension. */
  public static CollectionJobReq request(Query query) {
    return new CollectionJobReq(query, new byte[0], List.of());
  }

  /**
   * Runs a collection job for the query and returns the decoded aggregate.
   *
   * @throws DapProblemException if the Leader refuses the job or it fails (e.g. invalidBatchSize)
   * @throws IOException if the Leader cannot be reached, answers something that is not DAP, the
   *     shares do not open, or the job is not ready within the timeout
   */
  public CollectionResult collect(Query query, Progress progress)
      throws IOException, InterruptedException {
    if (query instanceof Query.CollectorSelected) {
      throw new IllegalArgumentException("a collector_selected job collects the reports"
          + " uploaded to it: use collectBundle");
    }
    return collect(requestFor(query), List.of(), new java.util.ArrayList<>(), progress);
  }

  /** What a collector-selected collection gives: the reports the Leader refused, and the result. */
  public record BundleCollection(List<ReportUploadStatus> refused, CollectionResult result) {
    /** Copies the list. */
    public BundleCollection {
      refused = List.copyOf(refused);
      Objects.requireNonNull(result, "result");
    }
  }

  /**
   * Runs a collection job of the collector_selected batch mode (draft-ietf-ppm-dap-attribution-00
   * section 4): creates the job ({@code req}, whose query is collector-selected, with its
   * extensions, e.g. min_dp_budget), uploads the bundle of encoded reports to the job's URL
   * {@code {leader}/tasks/{task-id}/reports/{collection-job-id}} in requests of at most {@link
   * #BUNDLE_CHUNK} reports, and only then polls the job: the Leader closes the batch at the first
   * GET, so every report of the bundle is uploaded before it. Returns the reports the Leader
   * refused (e.g. report_replayed for a report already in another job's batch) and the result.
   *
   * @throws DapProblemException if the Leader refuses the job or an upload, or the job fails
   * @throws IOException as {@link #collect}
   */
  public BundleCollection collectBundle(CollectionJobReq req, List<Report> bundle,
      Progress progress) throws IOException, InterruptedException {
    if (!(req.query() instanceof Query.CollectorSelected)) {
      throw new IllegalArgumentException("collectBundle needs a collector_selected query");
    }
    List<ReportUploadStatus> refused = new java.util.ArrayList<>();
    CollectionResult r = collect(req, List.copyOf(bundle), refused, progress);
    return new BundleCollection(refused, r);
  }

  /** The most reports one upload request of a bundle carries. */
  public static final int BUNDLE_CHUNK = 1000;

  private CollectionResult collect(CollectionJobReq req, List<Report> bundle,
      List<ReportUploadStatus> refused, Progress progress)
      throws IOException, InterruptedException {
    Objects.requireNonNull(progress, "progress");
    Query query = req.query();
    if (query.batchMode() != task.configuration().batchMode()) {
      throw new IllegalArgumentException("the task's batch mode is "
          + task.configuration().batchMode().specName() + ", the query's "
          + query.batchMode().specName());
    }
    mechanism(req); // a report-budget task without min_dp_budget cannot decode: refused before the job
    URI create = DapHttp.resource(task.configuration().leaderAggregatorEndpoint(),
        "tasks/" + task.taskId().toBase64Url() + "/collection_jobs");
    HttpRequest post = HttpRequest.newBuilder(create).timeout(DapHttp.REQUEST_TIMEOUT)
        .header("Content-Type", DapMediaType.COLLECTION_JOB_REQ.contentType())
        .header("Authorization", token.authorizationHeader())
        .POST(HttpRequest.BodyPublishers.ofByteArray(req.encode())).build();
    Waited waited = new Waited();
    HttpResponse<byte[]> r = sendRetrying(post, waited, progress);
    if (!DapHttp.success(r.statusCode())) {
      throw DapProblemException.of("the Leader refused the collection job", r);
    }
    URI job = location(create, r);
    if (query instanceof Query.CollectorSelected) {
      if (job == null) {
        throw new IOException("the Leader created the collection job without a Location");
      }
      refused.addAll(uploadBundle(job, bundle, waited, progress));
    }
    boolean releasedBefore = r.body().length > 0; // finished before this collection began
    int poll = 0;
    while (r.body().length == 0) {
      if (job == null) {
        throw new IOException("the Leader deferred the collection job without a Location");
      }
      Duration wait = retryAfter(r);
      if (waited.total.plus(wait).compareTo(timeout) > 0) {
        throw new NotReadyException("the collection job at " + job + " was not ready after "
            + waited.total.toSeconds() + " s (--timeout " + timeout.toSeconds() + " s)", job);
      }
      progress.notReady(poll, wait, waited.total);
      sleeper.sleep(wait);
      waited.total = waited.total.plus(wait);
      poll++;
      HttpRequest get = HttpRequest.newBuilder(job).timeout(DapHttp.REQUEST_TIMEOUT)
          .header("Authorization", token.authorizationHeader()).GET().build();
      r = sendRetrying(get, waited, progress);
      if (!DapHttp.success(r.statusCode())) {
        throw DapProblemException.of("the collection job failed", r);
      }
    }
    CollectionJobResp resp;
    try {
      resp = CollectionJobResp.decode(r.body());
    } catch (DapDecodeException e) {
      throw new IOException("the Leader's answer is not a CollectionJobResp: " + e.getMessage(),
          e);
    }
    CollectionResult opened = finish(req, resp);
    CollectionResult result = new CollectionResult(opened.reportCount(), opened.interval(),
        opened.result(), releasedBefore, ledger(r));
    if (query instanceof Query.LeaderSelected && job != null) {
      // DAP-18 "Collection Job Deletion": the batch is collected. Every leader-selected request
      // is the same bytes, so the Leader answers this job until it is deleted; deleting it lets
      // the next collect get the next batch. The result stands whatever the DELETE answers. A
      // failed job is not deleted (the Leader's next job takes over its batch), nor one this
      // Collector stopped waiting for (the next collect polls it again).
      HttpRequest delete = HttpRequest.newBuilder(job).timeout(DapHttp.REQUEST_TIMEOUT)
          .header("Authorization", token.authorizationHeader()).DELETE().build();
      DapHttp.send(http, delete, "the Leader");
    }
    return result;
  }

  /**
   * Uploads the bundle to the job's upload URL (its collection job ID is the last segment of the
   * job's URL) in chunks; returns the refused reports. A retried chunk is harmless: the Leader
   * accepts a report again that is already in this job's batch.
   */
  private List<ReportUploadStatus> uploadBundle(URI job, List<Report> bundle, Waited waited,
      Progress progress) throws IOException, InterruptedException {
    String path = job.getPath();
    String jobId = path.substring(path.lastIndexOf('/') + 1);
    URI upload = DapHttp.resource(task.configuration().leaderAggregatorEndpoint(),
        "tasks/" + task.taskId().toBase64Url() + "/reports/" + jobId);
    List<ReportUploadStatus> refused = new java.util.ArrayList<>();
    for (int from = 0; from < bundle.size(); from += BUNDLE_CHUNK) {
      List<Report> chunk = bundle.subList(from, Math.min(bundle.size(), from + BUNDLE_CHUNK));
      HttpResponse<byte[]> r = sendRetrying(DapHttp.uploadPost(upload, chunk), waited,
          progress);
      if (!DapHttp.success(r.statusCode())) {
        throw DapProblemException.of("the Leader refused the upload to the collection job"
            + (from == 0 ? "" : " (after " + from + " of " + bundle.size() + " reports)"), r);
      }
      refused.addAll(DapHttp.uploadErrors(r, task.dapVersion()));
    }
    return refused;
  }

  /** How long this collection has waited, polls and outages together. */
  private static final class Waited {
    Duration total = Duration.ZERO;
  }

  /**
   * Sends a request to the Leader, retrying what may pass (DAP-18 "HTTP Usage": the collection
   * job's POST and GET are idempotent): a connection refused or reset, a timeout, or a 5xx
   * answer, with a backoff from {@link #FIRST_BACKOFF} doubling to {@link #MAX_BACKOFF}, until
   * the total wait would pass the timeout; then the last failure is thrown (a 5xx as its
   * problem). The progress hears of each outage once, and of its end.
   */
  private HttpResponse<byte[]> sendRetrying(HttpRequest request, Waited waited,
      Progress progress) throws IOException, InterruptedException {
    Duration backoff = FIRST_BACKOFF;
    Duration outageStart = null;
    while (true) {
      HttpResponse<byte[]> r = null;
      IOException failure = null;
      try {
        r = DapHttp.send(http, request, "the Leader");
      } catch (IOException e) {
        failure = e; // DapHttp.send throws only transport failures
      }
      if (!retryTransient && failure != null) {
        throw failure;
      }
      if (r != null && (r.statusCode() < 500 || !retryTransient)) {
        if (outageStart != null) {
          progress.available(waited.total.minus(outageStart));
        }
        return r;
      }
      String problem = failure != null ? failure.getMessage()
          : "the Leader answered HTTP " + r.statusCode() + " to " + request.method() + " "
              + request.uri();
      if (waited.total.plus(backoff).compareTo(timeout) > 0) {
        String why = " (retried for " + (outageStart == null ? 0
            : waited.total.minus(outageStart).toSeconds()) + " s until --timeout "
            + timeout.toSeconds() + " s)";
        if (failure != null) {
          throw new IOException(failure.getMessage() + why, failure);
        }
        throw DapProblemException.of("the Leader failed" + why, r);
      }
      if (outageStart == null) {
        outageStart = waited.total;
        progress.unavailable(problem, backoff, waited.total);
      }
      sleeper.sleep(backoff);
      waited.total = waited.total.plus(backoff);
      backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF
          : backoff.multipliedBy(2);
    }
  }

  /**
   * Returns the Leader's {@link LedgerHeader} of a finished job's answer, or empty if it sent none
   * (a Leader that is not prio-dp, or one without a ledger) or one this Collector cannot read.
   */
  static Optional<LedgerHeader> ledger(HttpResponse<?> r) {
    Optional<String> h = r.headers().firstValue(LedgerHeader.NAME);
    try {
      return h.map(LedgerHeader::parse);
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // a header is prio-dp's extra: the DAP answer stands without it
    }
  }

  /** Returns the URL of the task's collection job {@code id} at the Leader. */
  public URI jobUri(org.priodp.aggregator.dap.CollectionJobId id) {
    return DapHttp.resource(task.configuration().leaderAggregatorEndpoint(),
        "tasks/" + task.taskId().toBase64Url() + "/collection_jobs/" + id.toBase64Url());
  }

  /**
   * Deletes the collection job at {@code job} (DAP-18 "Collection Job Deletion"): the Leader
   * stops working on it and its batch no longer blocks overlapping collections (batchOverlap).
   * Returns normally on 2xx; a refusal is a {@link DapProblemException}.
   */
  public void delete(URI job) throws IOException, InterruptedException {
    HttpRequest delete = HttpRequest.newBuilder(job).timeout(DapHttp.REQUEST_TIMEOUT)
        .header("Authorization", token.authorizationHeader()).DELETE().build();
    HttpResponse<byte[]> r = DapHttp.send(http, delete, "the Leader");
    if (!DapHttp.success(r.statusCode())) {
      throw DapProblemException.of("the Leader refused to delete the collection job", r);
    }
  }

  /**
   * Opens and decodes a CollectionJobResp answered to {@code req} (DAP-18 "Collection Job
   * Finalization").
   */
  public CollectionResult finish(CollectionJobReq req, CollectionJobResp resp) throws IOException {
    if (resp.reportCount() < 0) {
      throw new IOException("the Leader's report_count " + Long.toUnsignedString(
          resp.reportCount()) + " is out of range");
    }
    AggregateShareAad aad = new AggregateShareAad(task.taskId(), task.configuration(), req);
    byte[] leader = open(Role.LEADER, aad, resp.leaderEncryptedAggShare());
    byte[] helper = open(Role.HELPER, aad, resp.helperEncryptedAggShare());
    DpUnsharder collector;
    try {
      collector = DpUnsharder.of(mechanism(req)).withConfidence(confidence);
    } catch (IllegalStateException e) {
      throw new IOException(e.getMessage(), e);
    }
    try {
      return new CollectionResult(resp.reportCount(), resp.interval(),
          collector.unshard(List.of(leader, helper), resp.reportCount()));
    } catch (IllegalArgumentException e) {
      throw new IOException("the aggregate shares do not decode: " + e.getMessage(), e);
    }
  }

  private byte[] open(Role server, AggregateShareAad aad, HpkeCiphertext ct) throws IOException {
    try {
      return AggregateShareEncryption.open(task.dapVersion(), hpkeConfig, hpkeKey, server, aad,
          ct);
    } catch (HpkeException e) {
      throw new IOException("the " + (server == Role.LEADER ? "Leader" : "Helper") + "'s aggregate"
          + " share does not open with the collector's key and this task's configuration ("
          + e.getMessage() + ")", e);
    }
  }

  /**
   * Returns the job's URL from the Location header, resolved against the creation URL; a Location
   * on another origin is refused, so the bearer token is sent only to the Leader.
   */
  private static URI location(URI create, HttpResponse<byte[]> r) throws IOException {
    var header = r.headers().firstValue("Location");
    if (header.isEmpty()) {
      return null;
    }
    URI job;
    try {
      job = create.resolve(header.get().strip());
    } catch (IllegalArgumentException e) {
      throw new IOException("the Leader's Location is not a URL: " + header.get(), e);
    }
    if (!DapHttp.sameOrigin(create, job)) {
      throw new IOException("the Leader's Location " + job + " is not on the Leader's origin "
          + create.getScheme() + "://" + create.getAuthority() + "; not sending the token there");
    }
    return job;
  }

  /** Parses Retry-After (RFC 9110 section 10.2.3): seconds or an HTTP-date; 1 s without one. */
  static Duration retryAfter(HttpResponse<?> r) {
    var h = r.headers().firstValue("Retry-After");
    if (h.isEmpty()) {
      return DEFAULT_RETRY_AFTER;
    }
    String v = h.get().strip();
    if (v.matches("[0-9]{1,9}")) {
      return Duration.ofSeconds(Long.parseLong(v));
    }
    try {
      ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
      Duration d = Duration.between(java.time.Instant.now(), at.toInstant());
      return d.isNegative() ? Duration.ZERO : d;
    } catch (DateTimeParseException e) {
      return DEFAULT_RETRY_AFTER;
    }
  }
}
