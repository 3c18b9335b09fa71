package org.priodp.aggregator.dap.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.DapDecodeException;

class DapReaderTest {
  @Test
  void readsBigEndianIntegersAndVectors() {
    DapReader r = DapReader.of(HexFormat.of().parseHex(
        "ff" + "0102" + "fffffffe" + "8000000000000001" + "02abcd" + "0000"), "t");
    assertEquals(255, r.u8("a"));
    assertEquals(0x0102, r.u16("b"));
    assertEquals(0xfffffffeL, r.u32("c"));
    assertEquals(0x8000000000000001L, r.u64("d"));
    assertArrayEquals(new byte[] {(byte) 0xab, (byte) 0xcd}, r.opaque(1, 0, 255, "e").toByteArray());
    assertEquals(0, r.subVector(2, 0, 0xffff, "f").remaining());
    r.finish("t");
  }

  @Test
  void namesTheFieldOnEveryFailure() {
    DapDecodeException e = assertThrows(DapDecodeException.class,
        () -> DapReader.of(new byte[1], "t").u16("width"));
    assertEquals("width", e.field());
    e = assertThrows(DapDecodeException.class,
        () -> DapReader.of(new byte[] {0, 0, 0}, "t").opaque(2, 1, 10, "bounded"));
    assertEquals("bounded", e.field());
    e = assertThrows(DapDecodeException.class,
        () -> DapReader.of(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}, "t")
            .opaque(4, 0, 0xffffffffL, "huge"));
    assertEquals("huge", e.field());
    e = assertThrows(DapDecodeException.class, () -> DapReader.of(new byte[2], "msg").finish("msg"));
    assertEquals("msg", e.field());
  }

  @Test
  void writerEnforcesRangesAndBounds() {
    DapWriter w = new DapWriter().u8(1).u16(2).u32(3).u64(-1L).vector(1, 0, 3, new byte[] {7});
    assertEquals("01" + "0002" + "00000003" + "ffffffffffffffff" + "0107",
        HexFormat.of().formatHex(w.toByteArray()));
    assertThrows(IllegalArgumentException.class, () -> new DapWriter().u8(256));
    assertThrows(IllegalArgumentException.class, () -> new DapWriter().u16(-1));
    assertThrows(IllegalArgumentException.class, () -> new DapWriter().vector(1, 1, 3, new byte[0]));
  }
}
