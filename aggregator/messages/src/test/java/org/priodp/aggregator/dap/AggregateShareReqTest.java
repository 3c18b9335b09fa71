package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AggregateShareReqTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void encodesTheSpecExampleFieldByField() {
    byte[] checksum = new byte[32];
    checksum[0] = 0x0a;
    CollectionJobReq c = new CollectionJobReq(new Query.TimeInterval(Interval.of(1659540, 100)),
        new byte[] {0x00, 0x01}, List.of());
    AggregateShareReq req = new AggregateShareReq(c,
        new BatchSelector.TimeInterval(Interval.of(1659544, 10)), 1000, checksum);
    String expected = ""
        + "01" + "0010" + "0000000000195294" + "0000000000000064" // query: mode, config<16>
        + "00000002" + "0001" // agg_param<0..2^32-1>
        + "0000" // extensions<0..2^16-1>
        + "01" + "0010" + "0000000000195298" + "000000000000000a" // batch selector
        + "00000000000003e8" // report_count
        + HEX.formatHex(checksum);
    assertEquals(expected, HEX.formatHex(req.encode()));
    assertEquals(req, AggregateShareReq.decode(req.encode()));
  }

  @Test
  void leaderSelectedRoundTripsWithExtensionsAndMaxCount() {
    AggregateShareReq req = Samples.leaderSelectedReq();
    byte[] enc = req.encode();
    AggregateShareReq back = AggregateShareReq.decode(enc);
    assertEquals(req, back);
    assertArrayEquals(enc, back.encode());
    assertEquals(-1L, back.reportCount());
    assertEquals("18446744073709551615", Long.toUnsignedString(back.reportCount()));
    // query 02 0000, agg_param 00000000, extensions 0009 [0003 0001 09][0007 0000]
    assertEquals("020000" + "00000000" + "0009" + "0003000109" + "00070000" + "02" + "0020",
        HEX.formatHex(enc, 0, 21));
  }

  @Test
  void rejectsEveryTruncation() {
    for (AggregateShareReq req : List.of(Samples.timeIntervalReq(), Samples.leaderSelectedReq())) {
      byte[] enc = req.encode();
      for (int n = 0; n < enc.length; n++) {
        byte[] cut = java.util.Arrays.copyOf(enc, n);
        DapDecodeException e = assertThrows(DapDecodeException.class, () -> AggregateShareReq.decode(cut));
        assertEquals(DapError.INVALID_MESSAGE, e.error());
      }
    }
  }

  @Test
  void rejectsTrailingBytesNamingTheMessage() {
    byte[] enc = Samples.timeIntervalReq().encode();
    byte[] longer = java.util.Arrays.copyOf(enc, enc.length + 1);
    DapDecodeException e = assertThrows(DapDecodeException.class, () -> AggregateShareReq.decode(longer));
    assertTrue(e.getMessage().contains("AggregateShareReq") && e.getMessage().contains("trailing"),
        e.getMessage());
  }

  @Test
  void rejectsUnknownAndReservedBatchModes() {
    byte[] enc = Samples.timeIntervalReq().encode();
    for (int code : new int[] {0, 3, 255}) {
      byte[] bad = enc.clone();
      bad[0] = (byte) code;
      DapDecodeException e = assertThrows(DapDecodeException.class, () -> AggregateShareReq.decode(bad));
      assertEquals("collection_job_req.query.batch_mode", e.field());
    }
  }

  @Test
  void rejectsAHugeAggParamLengthWithoutAllocating() {
    byte[] enc = Samples.timeIntervalReq().encode();
    byte[] bad = enc.clone();
    // agg_param length prefix sits after the 19-byte query
    bad[19] = bad[20] = bad[21] = bad[22] = (byte) 0xff;
    DapDecodeException e = assertThrows(DapDecodeException.class, () -> AggregateShareReq.decode(bad));
    assertEquals("collection_job_req.agg_param", e.field());
    assertTrue(e.getMessage().contains("4294967295"), e.getMessage());
  }

  @Test
  void rejectsSelectorConfigOfTheWrongSizeForItsMode() {
    // a time-interval selector whose config holds a 32-byte batch id
    byte[] tail = BatchSelector.decode(new BatchSelector.LeaderSelected(
        new BatchId(new byte[32])).encode()).encode();
    tail[0] = 1;
    DapDecodeException e = assertThrows(DapDecodeException.class, () -> BatchSelector.decode(tail));
    assertEquals("batch_selector.config", e.field());
  }

  @Test
  void rejectsOutOfOrderExtensionsAsInvalidExtension() {
    byte[] enc = Samples.leaderSelectedReq().encode();
    byte[] bad = enc.clone();
    bad[15] = 0x08; // second extension type 7 -> 8 stays ordered
    assertEquals(8, AggregateShareReq.decode(bad).collectionJobReq().extensions().get(1).extensionType());
    bad[15] = 0x03; // duplicate type 3
    DapDecodeException e = assertThrows(DapDecodeException.class, () -> AggregateShareReq.decode(bad));
    assertEquals(DapError.INVALID_EXTENSION, e.error());
  }

  @Test
  void constructorValidatesTheChecksumLength() {
    CollectionJobReq c = Samples.timeIntervalReq().collectionJobReq();
    BatchSelector s = Samples.timeIntervalReq().batchSelector();
    assertThrows(IllegalArgumentException.class, () -> new AggregateShareReq(c, s, 1, new byte[31]));
    byte[] sum = new byte[32];
    AggregateShareReq r = new AggregateShareReq(c, s, 1, sum);
    sum[0] = 1;
    assertEquals(0, r.checksum().byteAt(0), "the record keeps its own copy");
  }

  @Test
  void nullInputIsADecodeError() {
    assertThrows(DapDecodeException.class, () -> AggregateShareReq.decode(null));
  }

  /**
   * Mutates, truncates and extends valid encodings: every case either decodes to a value that
   * re-encodes to the same bytes or throws DapDecodeException, never any other exception.
   */
  @Test
  void seededMutationsDecodeCanonicallyOrFailCleanly() {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("AggregateShareReqTest mutation seed=" + seed);
    Random rnd = new Random(seed);
    List<byte[]> bases = List.of(Samples.timeIntervalReq().encode(),
        Samples.leaderSelectedReq().encode());
    int decoded = 0;
    int rejected = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] base = bases.get(rnd.nextInt(bases.size()));
      byte[] m = mutate(base, rnd);
      try {
        AggregateShareReq r = AggregateShareReq.decode(m);
        if (!java.util.Arrays.equals(m, r.encode())) {
          fail("seed=" + seed + " case " + i + ": decoded but re-encodes differently: " + HEX.formatHex(m));
        }
        decoded++;
      } catch (DapDecodeException e) {
        rejected++;
      } catch (RuntimeException e) {
        throw new AssertionError("seed=" + seed + " case " + i + ": " + HEX.formatHex(m), e);
      }
    }
    System.out.println("AggregateShareReqTest mutations: decoded=" + decoded + " rejected=" + rejected);
    assertEquals(20_000, decoded + rejected);
    assertTrue(decoded > 0 && rejected > 0, "both outcomes should occur");
  }

  private static byte[] mutate(byte[] base, Random rnd) {
    byte[] m = base.clone();
    switch (rnd.nextInt(5)) {
      case 0: { // flip random bytes
        int flips = 1 + rnd.nextInt(3);
        for (int k = 0; k < flips; k++) {
          m[rnd.nextInt(m.length)] = (byte) rnd.nextInt(256);
        }
        return m;
      }
      case 1: // truncate
        return java.util.Arrays.copyOf(m, rnd.nextInt(m.length));
      case 2: { // extend with random bytes
        byte[] e = java.util.Arrays.copyOf(m, m.length + 1 + rnd.nextInt(8));
        for (int k = m.length; k < e.length; k++) {
          e[k] = (byte) rnd.nextInt(256);
        }
        return e;
      }
      case 3: { // set a byte to an extreme value (hits length prefixes)
        m[rnd.nextInt(m.length)] = rnd.nextBoolean() ? (byte) 0xff : 0;
        return m;
      }
      default: { // insert or delete one byte in the middle
        int at = rnd.nextInt(m.length);
        if (rnd.nextBoolean()) {
          byte[] d = new byte[m.length - 1];
          System.arraycopy(m, 0, d, 0, at);
          System.arraycopy(m, at + 1, d, at, m.length - at - 1);
          return d;
        }
        byte[] d = new byte[m.length + 1];
        System.arraycopy(m, 0, d, 0, at);
        d[at] = (byte) rnd.nextInt(256);
        System.arraycopy(m, at, d, at + 1, m.length - at);
        return d;
      }
    }
  }
}
