package org.priodp.aggregator.client;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.Interval;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.UnshardResult;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.PostProcessing;

/** A collection result refuses a report count beyond the long range (a uint64 the Leader sent). */
class CollectionResultTest {
  @Test
  void refusesNegativeCountsAndNulls() {
    UnshardResult r = new UnshardResult(new Prio3Variant.Count(),
        new DpStrategy.NoDifferentialPrivacy(), 1, 0, List.of(BigInteger.ONE),
        List.of(BigInteger.ONE), BigInteger.ZERO, 0.95, "exact", PostProcessing.NONE, List.of());
    new CollectionResult(1, Interval.of(1, 1), r);
    assertThrows(IllegalArgumentException.class,
        () -> new CollectionResult(-1, Interval.of(1, 1), r));
    assertThrows(NullPointerException.class, () -> new CollectionResult(1, null, r));
  }
}
