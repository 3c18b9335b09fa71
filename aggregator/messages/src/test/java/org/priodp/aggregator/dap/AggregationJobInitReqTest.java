package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;
import static org.priodp.aggregator.dap.SpecSamples.BATCH_ID;
import static org.priodp.aggregator.dap.SpecSamples.ID_A;
import static org.priodp.aggregator.dap.SpecSamples.ID_B;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AggregationJobInitReqTest {
  /** verification_key_id, agg_param and extensions: 1 + 6 + 38 = 45 bytes. */
  private static final String HEAD = ""
      + "07" // verification_key_id: uint8
      + "00000002" + "0001" // agg_param<0..2^32-1>
      + "0024" + "0001" + "0020" + BATCH_ID; // extensions<0..2^16-1>: leader_selected_batch_id

  private static AggregationJobInitReq sample() {
    return new AggregationJobInitReq(7, hex("0001"),
        List.of(AggregationJobExtension.leaderSelectedBatchId(new BatchId(hex(BATCH_ID)))),
        List.of(SpecSamples.verifyInit(ID_A), SpecSamples.verifyInit(ID_B)));
  }

  @Test
  void encodesTheHeaderThenTheVerifyInitsToTheEndOfTheBody() {
    String expected = HEAD
        // verify_inits[0] (58 bytes): report_share, payload<1..2^32-1>
        + ID_A + "0000000001312d00" + "0000" + "00000002 0a0b" + "02 0004 0c0d0e0f 00000004 08000a0b"
        + "00000007" + "00 00000002 abcd"
        // verify_inits[1]
        + ID_B + "0000000001312d00" + "0000" + "00000002 0a0b" + "02 0004 0c0d0e0f 00000004 08000a0b"
        + "00000007" + "00 00000002 abcd";
    CodecChecks.assertSpecBytes(expected, sample(), AggregationJobInitReq::encode,
        AggregationJobInitReq::decode);
    AggregationJobInitReq r = AggregationJobInitReq.decode(hex(expected));
    assertEquals(Optional.of(new BatchId(hex(BATCH_ID))), r.leaderSelectedBatchId());
    assertEquals(List.of(new ReportId(hex(ID_A)), new ReportId(hex(ID_B))), r.reportIds());
    // the Prio3 case: key id 0, empty agg_param, no extensions, no VerifyInits yet
    CodecChecks.assertSpecBytes("00" + "00000000" + "0000",
        new AggregationJobInitReq(0, new byte[0], List.of(), List.of()),
        AggregationJobInitReq::encode, AggregationJobInitReq::decode);
  }

  @Test
  void everyPrefixIsRejectedExceptAtVerifyInitBoundaries() {
    CodecChecks.assertEveryTruncation(sample().encode(), AggregationJobInitReq::decode,
        AggregationJobInitReq::encode, Set.of(45, 45 + 58));
  }

  @Test
  void rejectsEachMalformedFieldByName() {
    assertRejects(AggregationJobInitReq::decode, new byte[0], "verification_key_id");
    assertRejects(AggregationJobInitReq::decode, hex("00" + "00000003 0001"), "agg_param");
    assertRejects(AggregationJobInitReq::decode, hex("00" + "00000000"), "extensions length");
    assertRejects(AggregationJobInitReq::decode, hex("00" + "00000000" + "0008 0003 0000 0002 0000"),
        "extensions[1].extension_type", DapError.INVALID_MESSAGE);
    assertRejects(AggregationJobInitReq::decode, hex("00" + "00000000" + "0004 0001 0000"),
        "extensions[0].extension_data");
    String head = "00" + "00000000" + "0000";
    assertRejects(AggregationJobInitReq::decode,
        hex(head + SpecSamples.reportShareHex(ID_A) + "00000000"), "verify_inits[0].payload");
    assertRejects(AggregationJobInitReq::decode,
        hex(head + SpecSamples.verifyInitHex(ID_A) + "ff"),
        "verify_inits[1].report_share.report_metadata.report_id");
    assertRejects(AggregationJobInitReq::decode, hex(HEAD + SpecSamples.verifyInitHex(ID_A) + "00"),
        "verify_inits[1].report_share.report_metadata.report_id");
  }

  @Test
  void rejectsDuplicateReportIdsAsInvalidMessage() {
    String twice = HEAD + SpecSamples.verifyInitHex(ID_B) + SpecSamples.verifyInitHex(ID_A)
        + SpecSamples.verifyInitHex(ID_B);
    DapDecodeException e = assertRejects(AggregationJobInitReq::decode, hex(twice),
        "verify_inits[2].report_share.report_metadata.report_id", DapError.INVALID_MESSAGE);
    assertTrue(e.getMessage().contains("duplicate"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new AggregationJobInitReq(0, new byte[0],
        List.of(), List.of(SpecSamples.verifyInit(ID_A), SpecSamples.verifyInit(ID_A))));
  }

  @Test
  void constructorChecksRangesAndOrder() {
    assertThrows(IllegalArgumentException.class,
        () -> new AggregationJobInitReq(256, new byte[0], List.of(), List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> new AggregationJobInitReq(-1, new byte[0], List.of(), List.of()));
    AggregationJobExtension three = new AggregationJobExtension(3, new byte[0]);
    AggregationJobExtension one = AggregationJobExtension.leaderSelectedBatchId(new BatchId(new byte[32]));
    assertThrows(IllegalArgumentException.class,
        () -> new AggregationJobInitReq(0, new byte[0], List.of(three, one), List.of()));
    byte[] aggParam = {1};
    AggregationJobInitReq r = new AggregationJobInitReq(0, aggParam, List.of(), List.of());
    aggParam[0] = 2;
    assertEquals(1, r.aggParam().byteAt(0));
  }

  @Test
  void seededMutationsDecodeCanonicallyOrFailCleanly() {
    AggregationJobInitReq prio3 = new AggregationJobInitReq(0, new byte[0], List.of(),
        List.of(SpecSamples.verifyInit(ID_A)));
    CodecChecks.fuzz("AggregationJobInitReqTest", List.of(sample().encode(), prio3.encode()),
        AggregationJobInitReq::decode, AggregationJobInitReq::encode, 20_000);
  }
}
