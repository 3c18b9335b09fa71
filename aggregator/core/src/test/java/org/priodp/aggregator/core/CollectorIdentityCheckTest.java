package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.testing.Fixture;

/**
 * Where a task's collector_identity is enforced (draft-ietf-ppm-dap-attribution-00 section 6.1):
 * at start a key the identity does not list refuses the task in one line and an identity that
 * cannot be asked does not; before a release a denial is a 403 refusal and an unreachable identity
 * makes the Leader wait and the Helper answer a 503.
 */
class CollectorIdentityCheckTest {
  private static final URI IDENTITY = URI.create("https://collector.example/");
  private final Fixture f = Fixture.laplace(21);
  private final List<URI> asked = new CopyOnWriteArrayList<>();

  private CollectorIdentityCheck answering(CollectorAuthorization.Verdict v) {
    return new CollectorIdentityCheck((URI identity, HpkeConfig config) -> {
      assertEquals(f.collectorConfig, config, "the task's collector_hpke_config is asked about");
      asked.add(identity);
      return v;
    });
  }

  @Test
  void aTaskWithoutAnIdentityIsNeverAsked() {
    CollectorIdentityCheck check = answering(new CollectorAuthorization.Denied("never"));
    assertEquals(Optional.empty(), check.atStart(f.task));
    check.beforeRelease(f.task);
    assertEquals(List.of(), asked);
    CollectorIdentityCheck.UNAVAILABLE.beforeRelease(f.task);
  }

  @Test
  void atStartADeniedKeyRefusesTheTaskInOneLineNamingTaskUrlAndReason() {
    TaskDefinition t = f.withCollectorIdentity(Role.LEADER, IDENTITY);
    String line = answering(new CollectorAuthorization.Denied("it lists id(s) 3"))
        .atStart(t).orElseThrow();
    assertEquals("task " + f.taskId.toBase64Url() + ": collector_identity "
        + "https://collector.example/ does not authorize its collector_hpke_config: it lists"
        + " id(s) 3", line);
    assertEquals(List.of(IDENTITY), asked);
  }

  @Test
  void atStartAnUnreachableOrConfirmingIdentityLetsTheTaskStart() {
    TaskDefinition t = f.withCollectorIdentity(Role.HELPER, IDENTITY);
    assertEquals(Optional.empty(),
        answering(new CollectorAuthorization.Unconfirmed("connection refused")).atStart(t));
    assertEquals(Optional.empty(), answering(new CollectorAuthorization.Confirmed()).atStart(t));
    assertEquals(2, asked.size());
  }

  @Test
  void beforeReleaseADeniedKeyIsCollectorNotAuthorizedForEitherRole() {
    for (Role role : new Role[] {Role.LEADER, Role.HELPER}) {
      TaskDefinition t = f.withCollectorIdentity(role, IDENTITY);
      Refusal r = assertThrows(Refusal.class,
          () -> answering(new CollectorAuthorization.Denied("it lists id(s) 3")).beforeRelease(t));
      assertEquals(ProblemType.COLLECTOR_NOT_AUTHORIZED, r.error());
      assertEquals(Optional.of(f.taskId), r.taskId());
      assertTrue(r.detail().startsWith("collector_identity https://collector.example/ does not"
          + " authorize the task's collector_hpke_config"), r.detail());
      assertTrue(r.detail().endsWith("it lists id(s) 3"), r.detail());
    }
  }

  @Test
  void beforeReleaseAnUnreachableIdentityMakesTheLeaderWaitAndTheHelperAnswer503() {
    CollectorIdentityCheck down = answering(new CollectorAuthorization.Unconfirmed("refused"));
    TaskDefinition leader = f.withCollectorIdentity(Role.LEADER, IDENTITY);
    assertThrows(NoisedShareService.NotReady.class, () -> down.beforeRelease(leader));
    assertThrows(NoisedShareService.NotReady.class, () -> down.beforeRelease(leader),
        "asked again at the next step");
    TaskDefinition helper = f.withCollectorIdentity(Role.HELPER, IDENTITY);
    Refusal r = assertThrows(Refusal.class, () -> down.beforeRelease(helper));
    assertEquals(ProblemType.COLLECTOR_IDENTITY_UNAVAILABLE, r.error());
    assertTrue(r.detail().endsWith("could not be checked, so nothing is encrypted to it yet:"
        + " refused"), r.detail());
    assertEquals(3, asked.size());
  }

  @Test
  void beforeReleaseAConfirmedKeyPasses() {
    answering(new CollectorAuthorization.Confirmed())
        .beforeRelease(f.withCollectorIdentity(Role.HELPER, IDENTITY));
    assertEquals(List.of(IDENTITY), asked);
  }

  @Test
  void anAggregatorWithoutACheckNeverEncryptsForATaskWithAnIdentity() {
    assertThrows(Refusal.class, () -> CollectorIdentityCheck.UNAVAILABLE.beforeRelease(
        f.withCollectorIdentity(Role.HELPER, IDENTITY)));
  }
}
