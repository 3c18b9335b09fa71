package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.testing.MutableClock;

class LeaseHeartbeatTest {
  @Test
  void renewsEachHeldLeaseToNowPlusTheLeaseUntilLostOrClosed() {
    MutableClock clock = new MutableClock(Instant.ofEpochMilli(1_000_000));
    LeaseHeartbeat heartbeat = new LeaseHeartbeat(clock, Duration.ofSeconds(30));
    assertEquals(Duration.ofSeconds(10), heartbeat.period());
    List<Instant> renewedA = new ArrayList<>();
    List<Instant> renewedB = new ArrayList<>();
    AtomicBoolean bHeld = new AtomicBoolean(true);
    LeaseHeartbeat.Held a = heartbeat.hold("job a", t -> renewedA.add(t));
    LeaseHeartbeat.Held b = heartbeat.hold("job b", t -> renewedB.add(t) && bHeld.get());
    assertEquals(0, heartbeat.renewAll());
    clock.advance(Duration.ofSeconds(10));
    bHeld.set(false); // b's lease was taken over
    assertEquals(1, heartbeat.renewAll());
    assertTrue(b.lost());
    assertFalse(a.lost());
    clock.advance(Duration.ofSeconds(10));
    assertEquals(0, heartbeat.renewAll(), "a lost lease is not tried again");
    a.close();
    clock.advance(Duration.ofSeconds(10));
    heartbeat.renewAll();
    Instant t0 = Instant.ofEpochMilli(1_000_000);
    assertEquals(List.of(t0.plusSeconds(30), t0.plusSeconds(40), t0.plusSeconds(50)), renewedA);
    assertEquals(List.of(t0.plusSeconds(30), t0.plusSeconds(40)), renewedB);
  }

  @Test
  void aRenewalThatThrowsIsTriedAgainAndARunningThreadStops() {
    MutableClock clock = new MutableClock(Instant.ofEpochMilli(0));
    LeaseHeartbeat heartbeat = new LeaseHeartbeat(clock, Duration.ofSeconds(3));
    AtomicBoolean down = new AtomicBoolean(true);
    LeaseHeartbeat.Held h = heartbeat.hold("job", t -> {
      if (down.get()) {
        throw new IllegalStateException("store down");
      }
      return true;
    });
    assertEquals(0, heartbeat.renewAll());
    assertFalse(h.lost(), "a failed renewal does not give the lease up");
    down.set(false);
    assertEquals(0, heartbeat.renewAll());
    heartbeat.start();
    assertThrows(IllegalStateException.class, heartbeat::start);
    heartbeat.close();
    assertThrows(IllegalArgumentException.class, () -> new LeaseHeartbeat(clock, Duration.ZERO));
  }
}
