package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.AggregateShare;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.AggregationJobResp;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.StatusRepository;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.peer.HttpHelperPeer;
import org.priodp.aggregator.server.Aggregator;
import org.priodp.aggregator.server.AggregatorConfig;
import org.priodp.aggregator.testing.LeaderPair;
import org.priodp.aggregator.testing.MutableClock;
import org.priodp.vdaf.Prio3Variant;

/**
 * The status of a scripted pipeline (issue 24 "See the pipeline"): a Leader on SQLite with its
 * upload service and aggregation driver, a Helper {@link Aggregator} over HTTP; uploads with two
 * refusals, a job the Leader abandons (the Helper refuses it), a job with a report the Helper
 * rejects, a lease held by another replica, and a pending collection job whose reason moves from
 * "interval not over" to "not yet aggregated" to "min_batch_size". Every number is checked.
 * Seeds are printed.
 */
class PipelineStatusServiceTest {
  @TempDir
  Path dir;

  private final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = closing.size() - 1; i >= 0; i--) {
      closing.get(i).close();
    }
  }

  @Test
  void eachPartOfAScriptedPipelineShowsInTheStatusWithItsReason() throws Exception {
    long seed = System.nanoTime();
    System.out.println("PipelineStatusServiceTest seed " + seed);
    Random random = new Random(seed);
    int port = LeaderPair.freePort();
    LeaderPair pair = new LeaderPair(new Prio3Variant.Count(), random, port,
        BatchMode.TIME_INTERVAL, 100);
    JdbcDatastore helperStore = JdbcDatastore.openSqlite(dir.resolve("helper.db"));
    closing.add(helperStore);
    Aggregator helper = Aggregator.start(AggregatorConfig.builder(List.of(pair.helper),
        helperStore).port(port).build());
    closing.add(helper::close);
    HpkeConfig helperKey = helper.hpkeKeys().ensureActive().config();
    JdbcDatastore leaderStore = JdbcDatastore.openSqlite(dir.resolve("leader.db"));
    closing.add(leaderStore);
    MutableClock clock = new MutableClock(Instant.ofEpochMilli(System.currentTimeMillis()));
    HelperHpkeKeys leaderKeys = new HelperHpkeKeys(leaderStore, new SecureRandom(), clock);
    HpkeConfig leaderKey = leaderKeys.ensureActive().config();
    UploadService uploads = new UploadService(leaderStore, leaderKeys, clock,
        UploadService.DEFAULT_CLOCK_SKEW);
    PipelineStatusService status = new PipelineStatusService(leaderStore, clock);
    TaskDefinition task = pair.leader;
    long now = clock.instant().getEpochSecond() / LeaderPair.PRECISION;

    // a collection job for [now - 1, now + 1): its interval is not over
    CollectionJobRecord cj = CollectionJobService.forOperator(leaderStore, clock).create(task,
        new CollectionJobReq(new Query.TimeInterval(Interval.of(now - 1, 2)), new byte[0],
            List.of()));
    PipelineStatus s0 = status.status(task);
    assertEquals(1, s0.pendingCollections().size());
    assertEquals(cj.jobId(), s0.pendingCollections().get(0).jobId());
    assertEquals(new CollectionWait.IntervalNotOver(Instant.ofEpochSecond(
        (now + 1) * LeaderPair.PRECISION)), s0.pendingCollections().get(0).reason());

    // three valid reports, one too early, one replaying the ID of the first with other bytes
    List<Report> first = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      first.add(pair.report(leaderKey, helperKey, now, pair.measurement()));
    }
    Report other = pair.report(leaderKey, helperKey, now, pair.measurement());
    List<Report> batch = new ArrayList<>(first);
    batch.add(pair.report(leaderKey, helperKey, now + 10, pair.measurement()));
    batch.add(new Report(first.get(0).reportMetadata(), other.publicShare(),
        other.leaderEncryptedInputShare(), other.helperEncryptedInputShare()));
    uploads.upload(task, new UploadRequest(batch));
    PipelineStatus s1 = status.status(task);
    assertEquals(3, s1.counter(PipelineCounters.UPLOAD_ACCEPTED, ""));
    assertEquals(Map.of("report_too_early", 1L, "report_replayed", 1L),
        s1.byReason(PipelineCounters.UPLOAD_REJECTED));
    assertEquals(new StatusRepository.Backlog(3, Optional.of(now), 0, Optional.empty()),
        s1.backlog());
    clock.advance(Duration.ofSeconds(2 * LeaderPair.PRECISION)); // the interval is over
    assertEquals(new CollectionWait.NotYetAggregated(3, 0, 0),
        status.status(task).pendingCollections().get(0).reason());

    // the Helper refuses the first job: the Leader abandons it
    HttpHelperPeer http = HttpHelperPeer.create(new HttpHelperPeer.Options(
        Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofMillis(20),
        Duration.ofMillis(200), Duration.ofSeconds(2)));
    boolean[] refuse = {true};
    HelperPeer peer = new HelperPeer() {
      @Override
      public AggregationJobResp initializeAggregationJob(TaskDefinition t,
          AggregationJobInitReq req) {
        if (refuse[0]) {
          throw new HelperException("the Helper answered 401 (wrong token)", null, false, null);
        }
        return http.initializeAggregationJob(t, req);
      }

      @Override
      public AggregateShare aggregateShare(TaskDefinition t, AggregateShareReq req) {
        return http.aggregateShare(t, req);
      }
    };
    LeaderAggregationDriver driver = new LeaderAggregationDriver(leaderStore, leaderKeys, peer,
        List.of(task), clock, new SecureRandom(), Runnable::run,
        new LeaderAggregationDriver.Options(10, 1, Duration.ofMinutes(1), 5,
            Duration.ofSeconds(1), 1, Duration.ofMillis(100)), "replica-test");
    assertEquals(1, driver.createJobs());
    assertEquals(LeaderAggregationDriver.Outcome.ABANDONED, driver.stepOnce());

    // three more valid reports and one whose Helper share is sealed to the Leader's key
    refuse[0] = false;
    List<Report> second = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      second.add(pair.report(leaderKey, helperKey, now, pair.measurement()));
    }
    second.add(pair.report(leaderKey, leaderKey, now, pair.measurement()));
    uploads.upload(task, new UploadRequest(second));
    assertEquals(1, driver.createJobs());
    // another replica holds the new job's lease
    LeaderAggregationJob held = leaderStore.jobLeases().leaseAggregationJob(
        Set.of(task.taskId()), "replica-b", ByteString.copyOf(new byte[16]), clock.instant(),
        Duration.ofMinutes(1)).orElseThrow();
    PipelineStatus s2 = status.status(task);
    assertEquals(List.of(new StatusRepository.Lease("aggregation", held.jobId().toBase64Url(),
        "replica-b", clock.instant().plusSeconds(60), 1)), s2.leases());
    assertEquals(new CollectionWait.NotYetAggregated(0, 1, 4),
        s2.pendingCollections().get(0).reason(), "four reports in the held job");
    assertTrue(leaderStore.jobLeases().releaseAggregationJob(task.taskId(), held.jobId(),
        ByteString.copyOf(new byte[16]), clock.instant(), "handed back"));
    assertEquals(LeaderAggregationDriver.Outcome.FINISHED, driver.stepOnce());

    PipelineStatus s3 = status.status(task);
    assertEquals(3, s3.counter(PipelineCounters.LEADER_COUNTED, ""));
    Map<String, Long> leaderRejected = s3.byReason(PipelineCounters.LEADER_REJECTED);
    assertEquals(1, leaderRejected.values().stream().mapToLong(Long::longValue).sum(),
        "the Helper's rejection, as the Leader saw it: " + leaderRejected);
    assertTrue(leaderRejected.keySet().stream().allMatch(r -> r.startsWith("hpke_")),
        leaderRejected.toString());
    assertEquals(List.of(
        new StatusRepository.JobGroup("abandoned",
            Optional.of("the Helper answered 401 (wrong token)"), 1),
        new StatusRepository.JobGroup("finished", Optional.of("handed back"), 1)),
        s3.leaderJobs());
    assertEquals(List.of(), s3.leases());
    assertEquals(new StatusRepository.Backlog(0, Optional.empty(), 0, Optional.empty()),
        s3.backlog());
    assertEquals(new CollectionWait.TooFewReports(3, 100),
        s3.pendingCollections().get(0).reason());
    assertEquals("3 of 100 reports (min_batch_size)",
        s3.pendingCollections().get(0).reason().describe());
    // the Helper's own status counts what it decided
    PipelineStatus h = new PipelineStatusService(helperStore, clock).status(pair.helper);
    assertEquals(3, h.counter(PipelineCounters.HELPER_COUNTED, ""));
    assertEquals(leaderRejected, h.byReason(PipelineCounters.HELPER_REJECTED));
    assertEquals(List.of(new StatusRepository.JobGroup("ready", Optional.empty(), 1)),
        h.helperJobs());
    assertEquals(List.of(), h.pendingCollections());
  }
}
