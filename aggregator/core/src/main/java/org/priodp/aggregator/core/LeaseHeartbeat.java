package org.priodp.aggregator.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews the leases of the jobs this replica is working on (DAP-18 "Distributed Systems and
 * Synchronization Concerns"), so that a lease can be short (a stopped replica's jobs are taken
 * over soon) while a step that waits long on the Helper keeps its job: every third of the lease
 * each held lease's expiry moves to now plus the lease. A renewal that finds the lease gone (it
 * expired and was taken over, e.g. after a pause longer than the lease) marks it {@link
 * Held#lost lost}: the step stops before its next Helper call, and its commit, which checks the
 * token, would change nothing anyway. Times come from the injected clock; {@link #renewAll} may
 * be called directly (tests), {@link #start} runs it on a daemon thread until {@link #close}.
 */
public final class LeaseHeartbeat implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseHeartbeat.class);

  /** Moves one lease's expiry if the lease is still ours. */
  @FunctionalInterface
  public interface Renewal {
    /** Sets the lease's expiry to {@code expiresAt}; returns false if the lease is not ours. */
    boolean renew(Instant expiresAt);
  }

  /** A lease held while its job is worked on; {@link #close} stops renewing it. */
  public final class Held implements AutoCloseable {
    private final String what;
    private final Renewal renewal;
    private volatile boolean lost;

    private Held(String what, Renewal renewal) {
      this.what = what;
      this.renewal = renewal;
    }

    /** Returns whether a renewal found the lease gone. */
    public boolean lost() {
      return lost;
    }

    /** Stops renewing the lease. */
    @Override
    public void close() {
      held.remove(this);
    }

    @Override
    public String toString() {
      return what;
    }
  }

  private final Clock clock;
  private final Duration lease;
  private final Set<Held> held = ConcurrentHashMap.newKeySet();
  private Thread thread;

  /** Creates the heartbeat of leases of length {@code lease}, timed by {@code clock}. */
  public LeaseHeartbeat(Clock clock, Duration lease) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.lease = Objects.requireNonNull(lease, "lease");
    if (lease.isNegative() || lease.isZero()) {
      throw new IllegalArgumentException("the lease must be positive, got " + lease);
    }
  }

  /**
   * Logs why renewing a lease of replica {@code owner} failed, from the replica that holds it now:
   * an ERROR if it is held under this replica's own name by another token (two processes with
   * one replica id), a WARN naming the other replica otherwise.
   */
  static void lost(String what, String owner, Optional<String> holder) {
    if (holder.isPresent() && holder.get().equals(owner)) {
      LOG.error("{}: its lease is held under this replica's name {} by another token: is a"
          + " second process running with replica id {}? Give each replica its own"
          + " --replica-id", what, owner, owner);
    } else if (holder.isPresent()) {
      LOG.warn("{}: lease lost to replica {} (this replica was paused longer than the lease?);"
          + " its work here stops", what, holder.get());
    }
  }

  /**
   * Returns a lease owner name for this process: {@code host/pid}, which changes at each start,
   * so a restart cannot reclaim its leases ({@code serve} names its replica {@code host:port} or
   * {@code --replica-id} instead).
   */
  public static String defaultOwner() {
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      host = "unknown-host";
    }
    String name = host + "/" + ProcessHandle.current().pid();
    return name.length() > 100 ? name.substring(0, 100) : name;
  }

  /** Returns the pause between two renewals: a third of the lease. */
  public Duration period() {
    return lease.dividedBy(3);
  }

  /** Starts renewing a lease ({@code what} names it in logs) until the handle is closed. */
  public Held hold(String what, Renewal renewal) {
    Held h = new Held(Objects.requireNonNull(what, "what"),
        Objects.requireNonNull(renewal, "renewal"));
    held.add(h);
    return h;
  }

  /**
   * Renews every held lease not yet lost to now plus the lease; returns how many renewals found
   * their lease gone. A renewal that throws (the store is down) is logged and tried again at the
   * next round: the lease may still be ours.
   */
  public int renewAll() {
    Instant expires = clock.instant().truncatedTo(ChronoUnit.MILLIS).plus(lease);
    int lost = 0;
    for (Held h : held) {
      if (h.lost) {
        continue;
      }
      try {
        if (!h.renewal.renew(expires)) {
          h.lost = true;
          lost++;
        }
      } catch (RuntimeException e) {
        LOG.warn("{}: renewing its lease failed ({}); trying again in {}", h.what, e.toString(),
            period());
      }
    }
    return lost;
  }

  /** Starts renewing on a daemon thread every {@link #period}; throws if already started. */
  public synchronized void start() {
    if (thread != null) {
      throw new IllegalStateException("already started");
    }
    thread = new Thread(this::loop, "priodp-lease-heartbeat");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    long pause = Math.max(1, period().toMillis());
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        return;
      }
      renewAll();
    }
  }

  /** Stops the renewal thread, if started; the leases still held expire by themselves. */
  @Override
  public synchronized void close() {
    if (thread != null) {
      thread.interrupt();
      thread = null;
    }
  }
}
