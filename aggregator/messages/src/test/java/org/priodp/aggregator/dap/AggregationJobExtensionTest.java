package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;
import static org.priodp.aggregator.dap.SpecSamples.BATCH_ID;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

class AggregationJobExtensionTest {
  private static byte[] encodeList(List<AggregationJobExtension> list) {
    DapWriter w = new DapWriter();
    AggregationJobExtension.LIST.write(w, list);
    return w.toByteArray();
  }

  private static List<AggregationJobExtension> decodeList(byte[] b) {
    return Decoding.decodeAll(b, "list", (DapReader r) -> AggregationJobExtension.LIST.read(r, "extensions"));
  }

  @Test
  void encodesLeaderSelectedBatchIdAsTypeOneWithTheBatchId() {
    // extensions<0..2^16-1> = 0x0024 bytes: {extension_type 0x0001, extension_data<0..2^16-1> = BatchID}
    AggregationJobExtension e = AggregationJobExtension.leaderSelectedBatchId(new BatchId(hex(BATCH_ID)));
    CodecChecks.assertSpecBytes("0024" + "0001" + "0020" + BATCH_ID, List.of(e),
        AggregationJobExtensionTest::encodeList, AggregationJobExtensionTest::decodeList);
    assertEquals(Optional.of(new BatchId(hex(BATCH_ID))), e.asLeaderSelectedBatchId());
    assertEquals(Optional.empty(), new AggregationJobExtension(2, new byte[0]).asLeaderSelectedBatchId());
    // an unknown type is kept for the Helper to answer unsupportedExtension
    CodecChecks.assertSpecBytes("000a" + "0002 0000" + "ffff 0002 abcd",
        List.of(new AggregationJobExtension(2, new byte[0]), new AggregationJobExtension(0xffff, hex("abcd"))),
        AggregationJobExtensionTest::encodeList, AggregationJobExtensionTest::decodeList);
  }

  @Test
  void rejectsOutOfOrderListsAsInvalidMessage() {
    assertRejects(AggregationJobExtensionTest::decodeList, hex("0008" + "0002 0000" + "0002 0000"),
        "extensions[1].extension_type", DapError.INVALID_MESSAGE);
    assertRejects(AggregationJobExtensionTest::decodeList, hex("0008" + "0005 0000" + "0002 0000"),
        "extensions[1].extension_type", DapError.INVALID_MESSAGE);
    AggregationJobExtension two = new AggregationJobExtension(2, new byte[0]);
    assertThrows(IllegalArgumentException.class,
        () -> AggregationJobExtension.LIST.checkList(List.of(two, two), "extensions"));
  }

  @Test
  void rejectsABatchIdOfTheWrongLength() {
    DapDecodeException e = assertRejects(AggregationJobExtensionTest::decodeList,
        hex("0005" + "0001" + "0001" + "00"), "extensions[0].extension_data");
    assertTrue(e.getMessage().contains("leader_selected_batch_id"), e.getMessage());
    assertRejects(AggregationJobExtensionTest::decodeList, hex("0025" + "0001" + "0021" + BATCH_ID + "00"),
        "extensions[0].extension_data");
    assertThrows(IllegalArgumentException.class, () -> new AggregationJobExtension(1, new byte[31]));
  }

  @Test
  void rejectsTruncatedAndOversizedLists() {
    CodecChecks.assertEveryTruncationRejected(hex("0024" + "0001" + "0020" + BATCH_ID),
        AggregationJobExtensionTest::decodeList);
    assertRejects(AggregationJobExtensionTest::decodeList, hex("0003" + "0002 00"),
        "extensions[0].extension_data length");
    AggregationJobExtension big = new AggregationJobExtension(2, new byte[0xffff - 4]);
    assertEquals(1, AggregationJobExtension.LIST.checkList(List.of(big), "x").size());
    assertThrows(IllegalArgumentException.class, () -> AggregationJobExtension.LIST.checkList(
        List.of(big, new AggregationJobExtension(3, new byte[0])), "x"));
  }
}
