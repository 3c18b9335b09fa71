package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ByteStringTest {
  @Test
  void isAValueThatOwnsACopy() {
    byte[] b = {1, 2, 3};
    ByteString s = ByteString.copyOf(b);
    b[0] = 9;
    assertArrayEquals(new byte[] {1, 2, 3}, s.toByteArray(), "a later change to the array is not seen");
    s.toByteArray()[1] = 9;
    assertEquals(ByteString.copyOf(new byte[] {1, 2, 3}), s, "nor a change to what it returned");
    assertEquals(ByteString.copyOf(new byte[] {1, 2, 3}).hashCode(), s.hashCode());
    assertNotEquals(ByteString.copyOf(new byte[] {1, 2}), s);
    assertEquals(ByteString.EMPTY, ByteString.copyOf(new byte[0]));
    assertEquals(3, s.length());
    assertEquals(2, s.byteAt(1));
  }

  @Test
  void base64UrlRoundTripsAndRefusesPaddingAndForeignAlphabets() {
    long seed = System.nanoTime();
    System.out.println("ByteStringTest seed=" + seed);
    Random r = new Random(seed);
    for (int n = 0; n < 70; n++) {
      byte[] b = new byte[n];
      r.nextBytes(b);
      ByteString s = ByteString.copyOf(b);
      assertEquals(s, ByteString.fromBase64Url(s.toBase64Url()), "seed " + seed + " length " + n);
      assertTrue(s.toBase64Url().matches("[A-Za-z0-9_-]*"), s.toBase64Url());
    }
    assertThrows(IllegalArgumentException.class, () -> ByteString.fromBase64Url("AA=="));
    assertThrows(IllegalArgumentException.class, () -> ByteString.fromBase64Url("a+b/"));
  }

  @Test
  void ordersUnsignedAndShowsOnlyAPrefix() {
    ByteString small = ByteString.copyOf(new byte[] {0x01});
    ByteString big = ByteString.copyOf(new byte[] {(byte) 0x80});
    assertTrue(small.compareTo(big) < 0, "0x80 sorts after 0x01 (unsigned)");
    assertTrue(small.compareTo(ByteString.copyOf(new byte[] {0x01, 0x00})) < 0, "prefix first");
    assertEquals("0180", ByteString.copyOf(new byte[] {0x01, (byte) 0x80}).toString());
    byte[] share = new byte[400];
    share[0] = (byte) 0xab;
    assertEquals("ab00000000000000..(400 bytes)", ByteString.copyOf(share).toString());
    assertEquals(800, ByteString.copyOf(share).toHex().length());
  }
}
