package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.priodp.aggregator.dap.CodecChecks.assertEveryTruncationRejected;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.assertSpecBytes;
import static org.priodp.aggregator.dap.CodecChecks.hex;

import org.junit.jupiter.api.Test;

class CollectionJobRespTest {
  // DAP-18 "Collection Job Initialization": report_count uint64, Interval {start, duration},
  // then the two HpkeCiphertexts (config_id u8, enc<0..2^16-1>, payload<0..2^32-1>)
  private static final String SPEC_HEX = "0000000000000fa0" // report_count = 4000
      + "0000000000195283 000000000000000a" // interval {1659523, 10}
      + SpecSamples.LEADER_CT_HEX + SpecSamples.HELPER_CT_HEX;

  private static CollectionJobResp sample() {
    return new CollectionJobResp(4000, Interval.of(1659523, 10), SpecSamples.leaderCt(),
        SpecSamples.helperCt());
  }

  @Test
  void encodesTheSpecStructFieldByField() {
    assertSpecBytes(SPEC_HEX, sample(), CollectionJobResp::encode, CollectionJobResp::decode);
  }

  @Test
  void reportCountIsAnUnsigned64BitInteger() {
    CollectionJobResp max = new CollectionJobResp(-1L, Interval.of(0, 1), SpecSamples.leaderCt(),
        SpecSamples.helperCt());
    assertEquals("18446744073709551615",
        Long.toUnsignedString(CollectionJobResp.decode(max.encode()).reportCount()));
  }

  @Test
  void rejectsTruncationsAndTrailingBytes() {
    assertEveryTruncationRejected(hex(SPEC_HEX), CollectionJobResp::decode);
    assertRejects(CollectionJobResp::decode, hex(SPEC_HEX + "00"), "CollectionJobResp");
  }
}
