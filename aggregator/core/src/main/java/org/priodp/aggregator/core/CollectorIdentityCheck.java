package org.priodp.aggregator.core;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskId;

/**
 * Enforces a task's collector_identity extension (draft-ietf-ppm-dap-attribution-00 section 6.1:
 * the aggregators confirm that the identified Collector authorizes the HPKE configuration "they
 * use to encrypt aggregate shares for the Collector") with a {@link CollectorAuthorization}: at
 * start ({@link #atStart}) and before each release that would encrypt ({@link #beforeRelease}). A
 * task without the extension passes without a question. Thread-safe.
 */
public final class CollectorIdentityCheck {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(CollectorIdentityCheck.class);

  /**
   * The check of an aggregator built without a way to ask an identity: every task with a
   * collector_identity is unconfirmed, so nothing is encrypted for it.
   */
  public static final CollectorIdentityCheck UNAVAILABLE = new CollectorIdentityCheck(
      (identity, config) -> new CollectorAuthorization.Unconfirmed("this aggregator was built"
          + " without a collector identity check"));

  private final CollectorAuthorization authorization;
  /** The last reason logged per task while the Leader postpones, so a repeat is not logged. */
  private final Map<TaskId, String> postponed = new ConcurrentHashMap<>();

  /** Checks with {@code authorization} (give it a {@link CachedCollectorAuthorization}). */
  public CollectorIdentityCheck(CollectorAuthorization authorization) {
    this.authorization = Objects.requireNonNull(authorization, "authorization");
  }

  /** Returns the task's collector identity, if it has the extension. */
  public static Optional<URI> identity(TaskDefinition task) {
    return task.attribution().collectorIdentity();
  }

  /**
   * Checks a task as {@code serve} starts: empty if it has no identity or the identity confirms
   * its collector_hpke_config, or if the identity could not be asked (one WARN line; the check
   * repeats before each release); the one line refusing the task when the identity answered and
   * does not authorize the key.
   */
  public Optional<String> atStart(TaskDefinition task) {
    Optional<URI> identity = identity(task);
    if (identity.isEmpty()) {
      return Optional.empty();
    }
    var v = authorization.check(identity.get(), task.collectorHpkeConfig());
    if (v instanceof CollectorAuthorization.Denied d) {
      return Optional.of("task " + task.taskId().toBase64Url() + ": collector_identity "
          + identity.get() + " does not authorize its collector_hpke_config: " + d.reason());
    }
    if (v instanceof CollectorAuthorization.Confirmed) {
      LOG.info("task {}: collector_identity {} authorizes its collector_hpke_config (id {})",
          task.taskId().toBase64Url(), identity.get(), task.collectorHpkeConfig().id().value());
    } else if (v instanceof CollectorAuthorization.Unconfirmed u) {
      LOG.warn("task {}: collector_identity {} could not be checked at start: {}; nothing is"
          + " encrypted to the Collector until it confirms the key (checked before each release)",
          task.taskId().toBase64Url(), identity.get(), u.reason());
    }
    return Optional.empty();
  }

  /**
   * Confirms, before an aggregate share of the task is encrypted to the Collector, that its
   * identity authorizes the task's collector_hpke_config; returns at once for a task without the
   * extension. Throws {@link Refusal} {@link ProblemType#COLLECTOR_NOT_AUTHORIZED} when the
   * identity does not list the key, and when it could not be asked {@link
   * ProblemType#COLLECTOR_IDENTITY_UNAVAILABLE} for a Helper (a 5xx its Leader retries) or
   * {@link NoisedShareService.NotReady} for a Leader, whose collection job then waits.
   */
  public void beforeRelease(TaskDefinition task) {
    Optional<URI> identity = identity(task);
    if (identity.isEmpty()) {
      return;
    }
    TaskId taskId = task.taskId();
    var v = authorization.check(identity.get(), task.collectorHpkeConfig());
    if (v instanceof CollectorAuthorization.Confirmed) {
      postponed.remove(taskId);
      return;
    }
    if (v instanceof CollectorAuthorization.Denied d) {
      throw Refusal.of(ProblemType.COLLECTOR_NOT_AUTHORIZED, taskId, "collector_identity "
          + identity.get() + " does not authorize the task's collector_hpke_config, so nothing"
          + " is encrypted to it: " + d.reason());
    }
    String reason = ((CollectorAuthorization.Unconfirmed) v).reason();
    if (task.role() == Role.LEADER) {
      if (!reason.equals(postponed.put(taskId, reason))) {
        LOG.warn("task {}: collector_identity {} could not be checked: {}; the release waits",
            taskId.toBase64Url(), identity.get(), reason);
      }
      throw new NoisedShareService.NotReady();
    }
    throw Refusal.of(ProblemType.COLLECTOR_IDENTITY_UNAVAILABLE, taskId, "collector_identity "
        + identity.get() + " could not be checked, so nothing is encrypted to it yet: " + reason);
  }
}
