package org.priodp.noise.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.priodp.noise.RandomSource;
import org.priodp.noise.SeededRandomSource;

class SharedRandomnessTest {

  @Test
  void jumpingToAValueSeesTheSameBitsAsReadingTheReportInOrder() {
    SharedRandomness s = SharedRandomness.fromHex("00112233");
    RandomSource report = s.report(7);
    for (int i = 0; i < 300; i++) {
      RandomSource jump = s.stream(7, i);
      assertEquals(report.nextLong(), jump.nextLong(), "coordinate " + i);
      assertEquals(report.nextLong(), jump.nextLong(), "coordinate " + i);
    }
    // the report stream is the seeded source over seed || report (8 bytes, big-endian)
    RandomSource direct = new SeededRandomSource(new byte[] {0, 0x11, 0x22, 0x33, 0, 0, 0, 0, 0, 0, 0, 7});
    RandomSource again = s.report(7);
    for (int i = 0; i < 100; i++) {
      assertEquals(direct.nextLong(), again.nextLong());
    }
  }

  @Test
  void indicesAndSeedsSeparateTheStreams() {
    SharedRandomness s = SharedRandomness.fromHex("ab");
    long a = s.stream(0, 0).nextLong();
    assertNotEquals(a, s.stream(1, 0).nextLong());
    assertNotEquals(a, s.stream(0, 1).nextLong());
    assertNotEquals(a, SharedRandomness.fromHex("ac").stream(0, 0).nextLong());
    assertEquals(a, SharedRandomness.of(new byte[] {(byte) 0xab}).stream(0, 0).nextLong());
    assertEquals(SharedRandomness.fromHex(" AB "), s);
    assertEquals("ab", s.seedHex());
  }

  @Test
  void badInputIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> SharedRandomness.fromHex("abc"));
    assertThrows(IllegalArgumentException.class, () -> SharedRandomness.fromHex("zz"));
    SharedRandomness s = SharedRandomness.fromHex("");
    assertThrows(IllegalArgumentException.class, () -> s.stream(-1, 0));
    assertThrows(IllegalArgumentException.class, () -> s.stream(0, -1));
  }

  @Test
  void indexedSamplesAndTheSeekerSeeTheReportStream() {
    SharedRandomness s = SharedRandomness.fromHex("a1b2");
    RandomSource report = s.report(3);
    SeededRandomSource.Seeker seeker = s.seeker(3);
    for (long index = 0; index < 40; index++) {
      RandomSource a = s.indexed(3, index, 3);
      RandomSource b = seeker.at(index * 3, 3);
      for (int w = 0; w < 6; w++) {
        long r = report.nextLong();
        assertEquals(r, a.nextLong(), "index " + index);
        assertEquals(r, b.nextLong(), "index " + index);
      }
    }
    // the seeker keeps going past its first fill
    RandomSource far = seeker.at(5, 1);
    RandomSource ref = new SeededRandomSource(new byte[] {(byte) 0xa1, (byte) 0xb2, 0, 0, 0, 0, 0, 0, 0, 3}, 5, 16);
    for (int w = 0; w < 50; w++) {
      assertEquals(ref.nextLong(), far.nextLong());
    }
    assertThrows(IllegalArgumentException.class, () -> s.indexed(3, -1, 2));
    assertThrows(IllegalArgumentException.class, () -> s.indexed(3, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> s.indexed(3, Long.MAX_VALUE / 2, 3));
    assertThrows(IllegalArgumentException.class, () -> seeker.at(-1, 1));
  }
}
