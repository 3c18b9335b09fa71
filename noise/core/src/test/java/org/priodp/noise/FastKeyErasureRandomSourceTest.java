package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class FastKeyErasureRandomSourceTest {

  /** A stand-in for the DRBG: counts reads and returns bytes 0xA0, 0xA1, ... on each read. */
  private static final class CountingDrbg extends SecureRandom {
    private static final long serialVersionUID = 1L;
    int reads;
    long bytes;

    @Override
    public void nextBytes(byte[] out) {
      reads++;
      bytes += out.length;
      for (int i = 0; i < out.length; i++) {
        out[i] = (byte) (0xA0 + i);
      }
    }
  }

  private static byte[] testKey() {
    byte[] k = new byte[32];
    for (int i = 0; i < 32; i++) {
      k[i] = (byte) i;
    }
    return k;
  }

  /** Reads n bytes through the public API (nextLong is little-endian over the buffer). */
  private static byte[] read(RandomSource r, int n) {
    ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n / 8; i++) {
      b.putLong(r.nextLong());
    }
    return b.array();
  }

  /**
   * The reference, step by step with the JDK's AES directly: the CTR keystream under K is
   * AES_K(0) || AES_K(1) || ... (128-bit big-endian counters), computed here with AES/ECB; its
   * first 32 bytes are the next key, the rest is output; before every rekeyEvery-th refill after
   * the first, the DRBG bytes are XOR-ed into the key.
   */
  private static byte[] reference(byte[] key0, byte[] drbgBytes, int chunk, int rekeyEvery, int refills)
      throws Exception {
    byte[] key = key0.clone();
    byte[] out = new byte[chunk * refills];
    Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
    for (int r = 0; r < refills; r++) {
      if (r > 0 && r % rekeyEvery == 0) {
        for (int i = 0; i < 32; i++) {
          key[i] ^= drbgBytes[i];
        }
      }
      byte[] counters = new byte[32 + chunk];
      for (int b = 0; b < counters.length / 16; b++) {
        ByteBuffer.wrap(counters, 16 * b + 8, 8).putLong(b);
      }
      ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
      byte[] ks = ecb.doFinal(counters);
      key = Arrays.copyOfRange(ks, 0, 32);
      System.arraycopy(ks, 32, out, r * chunk, chunk);
    }
    return out;
  }

  private static byte[] drbgBytes() {
    byte[] d = new byte[32];
    new CountingDrbg().nextBytes(d);
    return d;
  }

  @Test
  void knownAnswerChainWithRekeys() throws Exception {
    int chunk = 64;
    CountingDrbg drbg = new CountingDrbg();
    var source = new FastKeyErasureRandomSource(testKey(), drbg, chunk, 3);
    byte[] got = read(source, chunk * 10);
    assertArrayEquals(reference(testKey(), drbgBytes(), chunk, 3, 10), got);
    assertEquals(3, drbg.reads, "rekeys before refills 4, 7 and 10");
  }

  @Test
  void knownAnswerAtProductionChunkSize() throws Exception {
    int chunk = FastKeyErasureRandomSource.CHUNK_BYTES;
    var source = new FastKeyErasureRandomSource(testKey(), new CountingDrbg(), chunk,
        FastKeyErasureRandomSource.REFILLS_PER_REKEY);
    byte[] got = read(source, chunk * 3);
    assertArrayEquals(reference(testKey(), drbgBytes(), chunk, FastKeyErasureRandomSource.REFILLS_PER_REKEY, 3), got);
    // a fixed point of the chain, so that a change of the construction is noticed: the first
    // output block is AES_K(2) for K = 00 01 .. 1f, the FIPS-197 C.3 key
    Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
    ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(testKey(), "AES"));
    byte[] two = new byte[16];
    two[15] = 2;
    assertArrayEquals(ecb.doFinal(two), Arrays.copyOfRange(got, 0, 16));
  }

  @Test
  void rekeysFromTheDrbgOnSchedule() {
    CountingDrbg drbg = new CountingDrbg();
    var source = new FastKeyErasureRandomSource(drbg);
    assertEquals(1, drbg.reads, "keyed from the DRBG at construction");
    assertEquals(32, drbg.bytes);
    long perRekey = (long) FastKeyErasureRandomSource.CHUNK_BYTES * FastKeyErasureRandomSource.REFILLS_PER_REKEY;
    assertEquals(64L << 20, perRekey, "64 MiB of output per DRBG read");
    for (long i = 0; i < perRekey / 8; i++) {
      source.nextLong();
    }
    assertEquals(1, drbg.reads, "no DRBG read within the first 64 MiB");
    source.nextBit();
    assertEquals(2, drbg.reads, "one DRBG read as the 65th MiB starts");
    assertEquals(64, drbg.bytes);

    // the schedule with small parameters: reads = 1 + floor((refills - 1) / every)
    CountingDrbg small = new CountingDrbg();
    var s = new FastKeyErasureRandomSource(null, small, 16, 4);
    for (int refills = 1; refills <= 20; refills++) {
      s.nextLong();
      s.nextLong();
      assertEquals(1 + (refills - 1) / 4, small.reads, "after " + refills + " refills");
    }
  }

  @Test
  void twoInstancesProduceDifferentStreams() {
    RandomSource a = RandomSource.secure();
    RandomSource b = RandomSource.secure();
    assertFalse(Arrays.equals(read(a, 64), read(b, 64)));
    assertFalse(Arrays.equals(read(new FastKeyErasureRandomSource(), 64), read(new FastKeyErasureRandomSource(), 64)));
    // even when both are built over one DRBG object, each takes its own key from it
    SecureRandom shared = SecureRandomSource.newDrbg();
    assertNotEquals(new FastKeyErasureRandomSource(shared).nextLong(), new FastKeyErasureRandomSource(shared).nextLong());
  }

  @Test
  void zeroesOutputAfterHandingItOut() {
    var source = new FastKeyErasureRandomSource(testKey(), new CountingDrbg(), 64, 1024);
    source.nextLong();
    source.nextLong();
    source.nextBits(3);
    byte[] buffer = source.bufferForTest();
    for (int i = 0; i < 24; i++) {
      assertEquals(0, buffer[i], "byte " + i + " was handed out and must be zero");
    }
    boolean unusedNonZero = false;
    for (int i = 24; i < 64; i++) {
      unusedNonZero |= buffer[i] != 0;
    }
    assertTrue(unusedNonZero, "bytes not yet handed out are still there");
    assertEquals(131, source.bitsConsumed());
  }

  @Test
  void bitsAreBalanced() {
    RandomSource r = RandomSource.secure();
    assertTrue(r instanceof FastKeyErasureRandomSource, "secure() is the fast-key-erasure stream");
    int n = 1 << 24;
    long ones = 0;
    for (int i = 0; i < n / 64; i++) {
      ones += Long.bitCount(r.nextLong());
    }
    // fails with probability about 2e-9 for a uniform source
    assertTrue(Math.abs(ones - n / 2.0) < 6 * Math.sqrt(n / 4.0), "ones=" + ones + " of " + n);
  }

  @Test
  void rejectsBadParameters() {
    SecureRandom d = new CountingDrbg();
    assertThrows(IllegalArgumentException.class, () -> new FastKeyErasureRandomSource(testKey(), d, 24, 1));
    assertThrows(IllegalArgumentException.class, () -> new FastKeyErasureRandomSource(testKey(), d, 64, 0));
    assertThrows(IllegalArgumentException.class, () -> new FastKeyErasureRandomSource(new byte[16], d, 64, 1));
    assertThrows(NullPointerException.class, () -> new FastKeyErasureRandomSource((SecureRandom) null));
  }
}
