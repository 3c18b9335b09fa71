package org.priodp.aggregator.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A UTC clock that a test sets and moves; thread-safe. */
public final class MutableClock extends Clock {
  /** The current instant. */
  public final AtomicReference<Instant> now;

  /** Starts at {@code start}. */
  public MutableClock(Instant start) {
    now = new AtomicReference<>(start);
  }

  /** Moves the clock forward. */
  public void advance(Duration d) {
    now.updateAndGet(t -> t.plus(d));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
