package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;
import static org.priodp.aggregator.dap.SpecSamples.ID_A;
import static org.priodp.aggregator.dap.SpecSamples.ID_B;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AggregationJobContinueReqTest {
  private static AggregationJobContinueReq sample() {
    return new AggregationJobContinueReq(1, List.of(
        new VerifyContinue(new ReportId(hex(ID_A)), hex("02 00000001 33")),
        new VerifyContinue(new ReportId(hex(ID_B)), hex("01 00000000 00000001 44"))));
  }

  @Test
  void encodesTheStepThenTheVerifyContinuesToTheEndOfTheBody() {
    String expected = ""
        + "0001" // step: uint16
        + ID_A + "00000006" + "02 00000001 33" // verify_continues[0] (26 bytes): ping-pong finish
        + ID_B + "0000000a" + "01 00000000 00000001 44"; // verify_continues[1]: ping-pong continue
    CodecChecks.assertSpecBytes(expected, sample(), AggregationJobContinueReq::encode,
        AggregationJobContinueReq::decode);
    assertEquals(List.of(new ReportId(hex(ID_A)), new ReportId(hex(ID_B))), sample().reportIds());
    CodecChecks.assertSpecBytes("ffff", new AggregationJobContinueReq(0xffff, List.of()),
        AggregationJobContinueReq::encode, AggregationJobContinueReq::decode);
  }

  @Test
  void everyPrefixIsRejectedExceptAtVerifyContinueBoundaries() {
    CodecChecks.assertEveryTruncation(sample().encode(), AggregationJobContinueReq::decode,
        AggregationJobContinueReq::encode, Set.of(2, 2 + 26));
  }

  @Test
  void rejectsStepZeroDuplicatesAndBadPayloads() {
    assertRejects(AggregationJobContinueReq::decode, hex("0000"), "step");
    assertRejects(AggregationJobContinueReq::decode, hex("0000" + ID_A + "00000001 33"), "step");
    assertRejects(AggregationJobContinueReq::decode, hex("01"), "step");
    assertRejects(AggregationJobContinueReq::decode,
        hex("0002" + ID_A + "00000001 33" + ID_B + "00000001 33" + ID_A + "00000001 33"),
        "verify_continues[2].report_id");
    assertRejects(AggregationJobContinueReq::decode, hex("0002" + ID_A + "00000000"),
        "verify_continues[0].payload");
    assertRejects(AggregationJobContinueReq::decode, hex("0002" + ID_A + "00000001 33" + "00"),
        "verify_continues[1].report_id");
    assertThrows(IllegalArgumentException.class, () -> new AggregationJobContinueReq(0, List.of()));
    assertThrows(IllegalArgumentException.class, () -> new AggregationJobContinueReq(0x10000, List.of()));
    VerifyContinue a = new VerifyContinue(new ReportId(hex(ID_A)), hex("33"));
    assertThrows(IllegalArgumentException.class, () -> new AggregationJobContinueReq(1, List.of(a, a)));
  }

  @Test
  void seededMutationsDecodeCanonicallyOrFailCleanly() {
    CodecChecks.fuzz("AggregationJobContinueReqTest", List.of(sample().encode()),
        AggregationJobContinueReq::decode, AggregationJobContinueReq::encode, 20_000);
  }
}
