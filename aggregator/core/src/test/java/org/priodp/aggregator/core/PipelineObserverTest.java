package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskId;

/**
 * The pipeline's observer port: {@code andThen} tells both observers of every event, in order;
 * an HTTP status maps to its outcome class; labels are the documented lower-case names.
 */
class PipelineObserverTest {
  /** Records each event as one line. */
  private static final class Recorder implements PipelineObserver {
    final String name;
    final List<String> events;

    Recorder(String name, List<String> events) {
      this.name = name;
      this.events = events;
    }

    @Override
    public void reportUploaded(TaskId task, Optional<ReportError> rejection) {
      events.add(name + " upload " + rejection.map(ReportError::specName).orElse("ok"));
    }

    @Override
    public void leaderJob(TaskId task, JobOutcome outcome, long aggregated,
        Map<ReportError, Integer> rejected) {
      events.add(name + " leader " + outcome.label() + " " + aggregated + " " + rejected);
    }

    @Override
    public void helperJob(TaskId task, long aggregated, Map<ReportError, Integer> rejected) {
      events.add(name + " helper " + aggregated + " " + rejected);
    }

    @Override
    public void helperCall(TaskId task, HelperResource resource, CallOutcome outcome,
        Duration latency) {
      events.add(name + " call " + resource.label() + " " + outcome.label());
    }

    @Override
    public void collectionJob(TaskId task, CollectionState state, Optional<Duration> timeToReady) {
      events.add(name + " collection " + state.label() + " " + timeToReady.orElse(null));
    }

    @Override
    public void shareReleased(TaskId task, Role role) {
      events.add(name + " released " + role);
    }
  }

  @Test
  void andThenTellsBothObserversOfEveryEventInOrder() {
    List<String> events = new ArrayList<>();
    PipelineObserver both = new Recorder("a", events).andThen(new Recorder("b", events));
    TaskId t = new TaskId(new byte[TaskId.LENGTH]);
    both.reportUploaded(t, Optional.of(ReportError.REPORT_TOO_EARLY));
    both.leaderJob(t, PipelineObserver.JobOutcome.LEASE_LOST, 0, Map.of());
    both.helperJob(t, 3, Map.of(ReportError.REPORT_REPLAYED, 1));
    both.helperCall(t, PipelineObserver.HelperResource.AGGREGATE_SHARES,
        PipelineObserver.CallOutcome.TIMEOUT, Duration.ofSeconds(1));
    both.collectionJob(t, PipelineObserver.CollectionState.READY,
        Optional.of(Duration.ofMinutes(2)));
    both.shareReleased(t, Role.HELPER);
    assertEquals(List.of(
        "a upload report_too_early", "b upload report_too_early",
        "a leader lease_lost 0 {}", "b leader lease_lost 0 {}",
        "a helper 3 {REPORT_REPLAYED=1}", "b helper 3 {REPORT_REPLAYED=1}",
        "a call aggregate_shares timeout", "b call aggregate_shares timeout",
        "a collection ready PT2M", "b collection ready PT2M",
        "a released HELPER", "b released HELPER"), events);
    PipelineObserver.NONE.andThen(PipelineObserver.NONE).shareReleased(t, Role.LEADER);
  }

  @Test
  void statusesMapToTheirOutcomeClass() {
    assertEquals(PipelineObserver.CallOutcome.OK, PipelineObserver.CallOutcome.ofStatus(200));
    assertEquals(PipelineObserver.CallOutcome.OK, PipelineObserver.CallOutcome.ofStatus(201));
    assertEquals(PipelineObserver.CallOutcome.CLIENT_ERROR,
        PipelineObserver.CallOutcome.ofStatus(401));
    assertEquals(PipelineObserver.CallOutcome.CLIENT_ERROR,
        PipelineObserver.CallOutcome.ofStatus(429));
    assertEquals(PipelineObserver.CallOutcome.SERVER_ERROR,
        PipelineObserver.CallOutcome.ofStatus(503));
    assertEquals(PipelineObserver.CallOutcome.SERVER_ERROR,
        PipelineObserver.CallOutcome.ofStatus(302));
    assertEquals("4xx", PipelineObserver.CallOutcome.CLIENT_ERROR.label());
    assertEquals("connection", PipelineObserver.CallOutcome.CONNECTION.label());
  }
}
