package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
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
    return reference(key0, drbgBytes, chunk, rekeyEvery, refills, new ArrayList<>(), new ArrayList<>());
  }

  /**
   * The reference, also listing for each refill r the key it was made with ({@code used}) and
   * the key it made ({@code next}: its first 32 keystream bytes, before any rekey mixes DRBG
   * bytes into it).
   */
  private static byte[] reference(byte[] key0, byte[] drbgBytes, int chunk, int rekeyEvery, int refills,
      List<byte[]> used, List<byte[]> next) throws Exception {
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
      used.add(key.clone());
      ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
      byte[] ks = ecb.doFinal(counters);
      key = Arrays.copyOfRange(ks, 0, 32);
      next.add(key.clone());
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

  // ---- what stays in memory (issue 25, item 7: fast key erasure that holds) ----
  //
  // These tests read the state of the JDK's AES provider reflectively; the surefire argLine of
  // this module opens javax.crypto, javax.crypto.spec and com.sun.crypto.provider for it.

  /**
   * Every byte[] and int[] reachable from {@code root} through instance fields of objects of this
   * package and of the JDK's crypto packages (javax.crypto, javax.crypto.spec,
   * com.sun.crypto.provider): the memory a generator and its Cipher hold.
   */
  private static List<Object> reachableArrays(Object root) throws IllegalAccessException {
    List<Object> arrays = new ArrayList<>();
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    Deque<Object> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      Object o = todo.pop();
      if (!seen.add(o)) {
        continue;
      }
      Class<?> c = o.getClass();
      if (c == byte[].class || c == int[].class) {
        arrays.add(o);
      } else if (c.isArray() && !c.getComponentType().isPrimitive()) {
        for (Object e : (Object[]) o) {
          if (e != null) {
            todo.push(e);
          }
        }
      } else {
        for (Class<?> k = c; k != null && inspected(k); k = k.getSuperclass()) {
          for (Field f : k.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()) {
              f.setAccessible(true);
              Object v = f.get(o);
              if (v != null) {
                todo.push(v);
              }
            }
          }
        }
      }
    }
    return arrays;
  }

  private static boolean inspected(Class<?> c) {
    return Set.of("org.priodp.noise", "javax.crypto", "javax.crypto.spec", "com.sun.crypto.provider")
        .contains(c.getPackageName());
  }

  /** The non-zero 64-bit little-endian words at every byte offset of {@code b[from, from + n)}. */
  private static Set<Long> words(byte[] b, int from, int n) {
    Set<Long> w = new HashSet<>();
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = from; i + 8 <= from + n; i++) {
      if (bb.getLong(i) != 0) {
        w.add(bb.getLong(i));
      }
    }
    return w;
  }

  /** Where a byte[] among {@code arrays} holds one of {@code forbidden} at any offset, or null. */
  private static String findWord(List<Object> arrays, Set<Long> forbidden) {
    for (Object a : arrays) {
      if (a instanceof byte[] b) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i + 8 <= b.length; i++) {
          if (forbidden.contains(bb.getLong(i))) {
            return "byte[" + b.length + "] at offset " + i;
          }
        }
      }
    }
    return null;
  }

  /** The expanded AES key (round keys) the JDK provider makes from {@code key}. */
  private static List<int[]> roundKeys(byte[] key) throws Exception {
    Cipher c = Cipher.getInstance("AES/ECB/NoPadding");
    c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
    List<int[]> out = new ArrayList<>();
    for (Object a : reachableArrays(c)) {
      if (a instanceof int[] x && x.length >= 40) {
        out.add(x.clone());
      }
    }
    assertFalse(out.isEmpty(), "found the provider's round keys");
    return out;
  }

  /**
   * The finding of issue 25: the JDK's AES/CTR cipher keeps the last keystream block it made (in
   * CounterMode.encryptedCounter) even after it is re-initialized with another key, so a
   * generator that takes its output from AES/CTR leaves its last 16 output bytes there until the
   * next refill.
   */
  @Test
  void jdkCounterModeKeepsTheLastKeystreamBlockAfterReinit() throws Exception {
    Cipher ctr = Cipher.getInstance("AES/CTR/NoPadding");
    ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(testKey(), "AES"), new IvParameterSpec(new byte[16]));
    byte[] keystream = ctr.update(new byte[64]);
    ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[32], "AES"), new IvParameterSpec(new byte[16]));
    assertTrue(findWord(reachableArrays(ctr), words(keystream, 48, 16)) != null,
        "the last keystream block is still in the CTR cipher");
    assertTrue(findWord(reachableArrays(ctr), words(keystream, 0, 48)) == null,
        "only the last block: earlier ones were overwritten");
  }

  /**
   * What the generator relies on in the JDK's AES: every copy of the key it takes (through
   * Key.getEncoded of the generator's key class) is zeroed before init returns, and a re-init with another key zeroes the
   * old round keys and the provider's own copy of the old key. SecretKeySpec, by contrast,
   * keeps its copy (its destroy() is not implemented), which is why the generator does not use
   * it.
   */
  @Test
  void jdkAesZeroesItsCopiesOfTheOldKeyOnReinit() throws Exception {
    // the generator's key class, recording the copies it hands to the provider
    final class RecordingKey extends FastKeyErasureRandomSource.OwnedKey {
      private static final long serialVersionUID = 1L;
      final transient List<byte[]> copies = new ArrayList<>();

      RecordingKey(byte[] bytes) {
        super(bytes);
      }

      @Override
      public byte[] getEncoded() {
        byte[] c = super.getEncoded();
        copies.add(c);
        return c;
      }
    }
    Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
    RecordingKey key = new RecordingKey(testKey());
    ecb.init(Cipher.ENCRYPT_MODE, key);
    assertFalse(key.copies.isEmpty());
    for (byte[] c : key.copies) {
      assertArrayEquals(new byte[32], c, "the provider zeroes each copy of the key it takes");
    }
    List<Object> held = reachableArrays(ecb);
    List<int[]> schedules = new ArrayList<>();
    List<byte[]> keyCopies = new ArrayList<>();
    for (Object a : held) {
      if (a instanceof int[] x && x.length >= 40) {
        schedules.add(x);
      } else if (a instanceof byte[] b && Arrays.equals(b, testKey())) {
        keyCopies.add(b);
      }
    }
    assertEquals(2, schedules.size(), "round keys for encryption and decryption");
    assertEquals(1, keyCopies.size(), "the provider keeps one copy of the key while keyed");

    ecb.init(Cipher.ENCRYPT_MODE, new RecordingKey(new byte[32]));
    for (int[] s : schedules) {
      assertArrayEquals(new int[s.length], s, "old round keys zeroed on re-init");
    }
    assertArrayEquals(new byte[32], keyCopies.get(0), "the provider's copy of the old key zeroed on re-init");

    SecretKeySpec spec = new SecretKeySpec(testKey(), "AES");
    ecb.init(Cipher.ENCRYPT_MODE, spec);
    ecb.init(Cipher.ENCRYPT_MODE, new RecordingKey(new byte[32]));
    assertTrue(findWord(reachableArrays(spec), words(testKey(), 0, 32)) != null,
        "a SecretKeySpec keeps its copy of the key after use");
  }

  /**
   * After each draw, neither the generator nor its Cipher holds a word it handed out, an
   * earlier key or the round keys of an earlier key; its own key array holds the key made by the
   * last refill (not the one that refill used), and the DRBG bytes of a rekey are zeroed. Drawn
   * mid-chunk and at the end of a chunk (all of it handed out, the next refill not yet made:
   * the state an idle server is left in), across a rekey.
   */
  @Test
  void keepsNoHandedOutOutputAndNoEarlierKeyInMemory() throws Exception {
    int chunk = 64;
    int refills = 5;
    List<byte[]> used = new ArrayList<>();
    List<byte[]> next = new ArrayList<>();
    reference(testKey(), drbgBytes(), chunk, 2, refills, used, next);
    var source = new FastKeyErasureRandomSource(testKey(), new CountingDrbg(), chunk, 2);
    Set<Long> handedOut = new HashSet<>();
    int wordsPerChunk = chunk / 8;
    int drawn = 0;
    // stop after 1.5 chunks, 3 chunks (a rekey came before refill 3), 3.5, 5 chunks
    for (int stop : new int[] {wordsPerChunk * 3 / 2, 3 * wordsPerChunk, wordsPerChunk * 7 / 2, 5 * wordsPerChunk}) {
      while (drawn < stop) {
        long w = source.nextLong();
        if (w != 0) {
          handedOut.add(w);
        }
        drawn++;
      }
      int made = (drawn + wordsPerChunk - 1) / wordsPerChunk; // refills made so far
      List<Object> held = reachableArrays(source);
      assertTrue(held.stream().anyMatch(a -> a instanceof int[] x && x.length >= 40),
          "the walk reaches the provider's round keys");
      assertTrue(held.contains(source.bufferForTest()), "the walk reaches the output buffer");

      String where = findWord(held, handedOut);
      assertTrue(where == null, "after " + drawn + " words a handed-out word is still in " + where);

      Set<Long> oldKeys = new HashSet<>();
      for (int r = 0; r < made; r++) {
        oldKeys.addAll(words(used.get(r), 0, 32));
        if (r < made - 1) {
          oldKeys.addAll(words(next.get(r), 0, 32));
        }
        for (int[] schedule : roundKeys(used.get(r))) {
          for (Object a : held) {
            assertFalse(a instanceof int[] x && Arrays.equals(x, schedule),
                "round keys of the key of refill " + r + " are still held after " + drawn + " words");
          }
        }
      }
      where = findWord(held, oldKeys);
      assertTrue(where == null, "after " + drawn + " words an earlier key is still in " + where);

      byte[] key = (byte[]) field(source, "key");
      assertArrayEquals(next.get(made - 1), key, "the key array holds the key the last refill made");
      assertFalse(Arrays.equals(used.get(made - 1), key), "and not the one it used");
      assertArrayEquals(new byte[32], (byte[]) field(source, "fresh"), "DRBG bytes of a rekey are zeroed");
    }
  }

  private static Object field(Object o, String name) throws ReflectiveOperationException {
    Field f = o.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(o);
  }

  /**
   * The output is AES-256-CTR as the JDK computes it: chunk r is the CTR keystream (initial
   * counter block zero) under the key of refill r from byte 32 on, and its first 32 bytes are
   * the next key.
   */
  @Test
  void outputIsTheJdkAesCtrKeystreamOfTheKeyChain() throws Exception {
    int chunk = 256;
    var source = new FastKeyErasureRandomSource(testKey(), new CountingDrbg(), chunk, 1024);
    byte[] got = read(source, 3 * chunk);
    byte[] key = testKey();
    for (int r = 0; r < 3; r++) {
      Cipher ctr = Cipher.getInstance("AES/CTR/NoPadding");
      ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(new byte[16]));
      byte[] keystream = ctr.doFinal(new byte[32 + chunk]);
      assertArrayEquals(Arrays.copyOfRange(keystream, 32, 32 + chunk),
          Arrays.copyOfRange(got, r * chunk, (r + 1) * chunk), "chunk " + r);
      key = Arrays.copyOfRange(keystream, 0, 32);
    }
  }

  /** The generator's key class gives out copies only, and refuses serialization. */
  @Test
  void ownedKeyGivesCopiesAndIsNotSerializable() {
    byte[] bytes = testKey();
    var key = new FastKeyErasureRandomSource.OwnedKey(bytes);
    byte[] copy = key.getEncoded();
    assertArrayEquals(bytes, copy);
    copy[0] ^= 1;
    assertArrayEquals(testKey(), bytes, "changing a copy leaves the owner's array alone");
    assertEquals("RAW", key.getFormat());
    assertEquals("AES", key.getAlgorithm());
    assertThrows(java.io.NotSerializableException.class,
        () -> new java.io.ObjectOutputStream(new java.io.ByteArrayOutputStream()).writeObject(key));
  }

  /**
   * The state an idle server is left in, at the production chunk size: 64 KiB drawn (all of the
   * first chunk handed out, the next refill not made yet) and nothing of it is left in the
   * generator or its cipher, nor the key or round keys it was made with.
   */
  @Test
  void afterAWholeProductionChunkNothingOfItRemains() throws Exception {
    var source = new FastKeyErasureRandomSource(testKey(), new CountingDrbg(),
        FastKeyErasureRandomSource.CHUNK_BYTES, FastKeyErasureRandomSource.REFILLS_PER_REKEY);
    byte[] drawn = read(source, FastKeyErasureRandomSource.CHUNK_BYTES);
    List<Object> held = reachableArrays(source);
    String where = findWord(held, words(drawn, 0, drawn.length));
    assertTrue(where == null, "a handed-out word is still in " + where);
    assertTrue(findWord(held, words(testKey(), 0, 32)) == null, "the key of the chunk is gone");
    for (int[] schedule : roundKeys(testKey())) {
      for (Object a : held) {
        assertFalse(a instanceof int[] x && Arrays.equals(x, schedule), "its round keys are gone");
      }
    }
  }
}
