package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.dap.CodecChecks.hex;

import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

class ReportExtensionTest {
  private static final IntPredicate ANY = t -> true;

  private static ReportExtension ext(int type, String dataHex) {
    return new ReportExtension(type, hex(dataHex));
  }

  private static byte[] encodeList(List<ReportExtension> list) {
    DapWriter w = new DapWriter();
    ReportExtension.LIST.write(w, list);
    return w.toByteArray();
  }

  private static List<ReportExtension> decodeList(byte[] b) {
    return Decoding.decodeAll(b, "list", (DapReader r) -> ReportExtension.LIST.read(r, "public_extensions"));
  }

  @Test
  void encodesTheListAsTypeLengthValueUnderATwoByteLength() {
    // Extension extensions<0..2^16-1>: 0009 = 9 bytes of list;
    // {extension_type 0x0001, extension_data<0..2^16-1> = 01 aa}, {0x0005, <empty>}
    CodecChecks.assertSpecBytes("0009" + "0001 0001 aa" + "0005 0000",
        List.of(ext(1, "aa"), ext(5, "")), ReportExtensionTest::encodeList,
        ReportExtensionTest::decodeList);
    CodecChecks.assertSpecBytes("0000", List.of(), ReportExtensionTest::encodeList,
        ReportExtensionTest::decodeList);
  }

  @Test
  void decodesAnyOrderBecauseOrderIsAPerReportRule() {
    List<ReportExtension> unordered = decodeList(hex("0008" + "0005 0000" + "0001 0000"));
    assertEquals(List.of(ext(5, ""), ext(1, "")), unordered);
    assertFalse(ReportExtension.isStrictlyIncreasing(unordered));
    List<ReportExtension> dup = decodeList(hex("0008" + "0002 0000" + "0002 0000"));
    assertFalse(ReportExtension.isStrictlyIncreasing(dup));
    assertTrue(ReportExtension.isStrictlyIncreasing(List.of(ext(0, ""), ext(0xffff, ""))));
  }

  @Test
  void rejectsBadListBytesNamingTheField() {
    CodecChecks.assertEveryTruncationRejected(hex("0009" + "0001 0001 aa" + "0005 0000"),
        ReportExtensionTest::decodeList);
    // list length says 5 but the entry inside declares 2 bytes of data and has 1
    CodecChecks.assertRejects(ReportExtensionTest::decodeList, hex("0005" + "0001 0002 aa"),
        "public_extensions[0].extension_data");
    // a lone byte left inside the list cannot start an extension_type
    CodecChecks.assertRejects(ReportExtensionTest::decodeList, hex("0005" + "0001 0000 07"),
        "public_extensions[1].extension_type");
    CodecChecks.assertRejects(ReportExtensionTest::decodeList, hex("ffff" + "0001 0000"),
        "public_extensions");
  }

  @Test
  void validateAppliesTheInputShareValidationRules() {
    List<ReportExtension> pub = List.of(ext(1, ""), ext(3, "00"));
    List<ReportExtension> priv = List.of(ext(2, ""));
    assertEquals(Optional.empty(), ReportExtension.validate(pub, priv, ANY));
    assertEquals(Optional.empty(), ReportExtension.validate(List.of(), List.of(), t -> false));
    // same type public and private
    assertEquals(Optional.of(ReportExtension.Failure.REPEATED),
        ReportExtension.validate(pub, List.of(ext(3, "")), ANY));
    // out of order in either list
    assertEquals(Optional.of(ReportExtension.Failure.REPEATED),
        ReportExtension.validate(List.of(ext(3, ""), ext(1, "")), List.of(), ANY));
    assertEquals(Optional.of(ReportExtension.Failure.REPEATED),
        ReportExtension.validate(List.of(), List.of(ext(2, ""), ext(2, "")), ANY));
    // unrecognized type (DAP-18 and -19 register none, so the default Helper recognizes nothing)
    assertEquals(Optional.of(ReportExtension.Failure.UNRECOGNIZED),
        ReportExtension.validate(pub, priv, t -> t != 2));
  }

  @Test
  void constructorChecksRangesAndListSize() {
    assertThrows(IllegalArgumentException.class, () -> new ReportExtension(-1, new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> new ReportExtension(0x10000, new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> new ReportExtension(1, new byte[0x10000]));
    ReportExtension big = new ReportExtension(1, new byte[0xffff - 4]);
    assertEquals(1, ReportExtension.LIST.checkList(List.of(big), "x").size());
    assertThrows(IllegalArgumentException.class,
        () -> ReportExtension.LIST.checkList(List.of(big, ext(2, "")), "x"));
    byte[] data = {1};
    ReportExtension e = new ReportExtension(1, data);
    data[0] = 2;
    assertEquals(1, e.extensionData().byteAt(0));
  }

  @Test
  void toStringHidesTheData() {
    assertEquals("ReportExtension[type=7, 3 data bytes]", ext(7, "abcdef").toString());
  }
}
