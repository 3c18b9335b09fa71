package org.priodp.aggregator.testing;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.hpke.HPKE;
import org.priodp.aggregator.hpke.HpkeKeyPair;

/**
 * A DAP-19 (or DAP-18) Collector written from the spec's struct definitions alone ("Collection Job
 * Initialization", "Collection Job Finalization", "Aggregate Share Encryption", "Task
 * Configuration"), with its own TLS-presentation encoder ({@link SpecTls}), its own decoder of
 * CollectionJobResp and Bouncy Castle's HPKE, never the project's DAP codec: it writes the
 * CollectionJobReq, decodes the answer, opens both aggregate shares with info {@code "dap-19
 * aggregate share" || server_role || 0x00} (or the {@link SpecDraft}'s) and AAD {@code
 * AggregateShareAad}, and unshards Field128 vectors (Prio3Histogram) by adding them modulo p and lifting to signed integers.
 */
public final class SpecCollector {
  /** BatchMode.time_interval. */
  public static final int TIME_INTERVAL = 1;
  /** BatchMode.leader_selected. */
  public static final int LEADER_SELECTED = 2;
  /** Role.leader. */
  public static final int LEADER = 2;
  /** Role.helper. */
  public static final int HELPER = 3;
  /** The Field128 modulus 2^128 - 7 * 2^66 + 1. */
  public static final BigInteger P = BigInteger.ONE.shiftLeft(128)
      .subtract(BigInteger.valueOf(7).shiftLeft(66)).add(BigInteger.ONE);

  private SpecCollector() {
  }

  /** Interval { Time start; Duration duration; }. */
  public static byte[] interval(long start, long duration) {
    return new SpecTls().u64(start).u64(duration).bytes();
  }

  /** Query { BatchMode batch_mode; opaque config<0..2^16-1>; } for a time interval. */
  public static byte[] timeIntervalQuery(long start, long duration) {
    return new SpecTls().u8(TIME_INTERVAL).opaque16(interval(start, duration)).bytes();
  }

  /** CollectionJobReq { Query query; opaque agg_param<0..2^32-1>; extensions<0..2^16-1>; }. */
  public static byte[] collectionJobReq(byte[] query, byte[] aggParam, byte[] extensions) {
    return new SpecTls().raw(query).opaque32(aggParam).opaque16(extensions).bytes();
  }

  /** The CollectionJobReq of a time-interval query without aggregation parameter or extension. */
  public static byte[] collectionJobReq(long start, long duration) {
    return collectionJobReq(timeIntervalQuery(start, duration), new byte[0], new byte[0]);
  }

  /**
   * TaskConfiguration of a time-interval Prio3Histogram task as the Collector was provisioned
   * with it ("VDAF Configuration Encodings": {uint32 length; uint32 chunk_length}).
   */
  public static byte[] histogramTaskConfiguration(int length, int chunkLength,
      long timePrecision, long minBatchSize, byte[] extensions) {
    return histogramTaskConfiguration(length, chunkLength, timePrecision, minBatchSize,
        TIME_INTERVAL, extensions);
  }

  /** The same with another batch mode (1 time_interval, 2 leader_selected). */
  public static byte[] histogramTaskConfiguration(int length, int chunkLength,
      long timePrecision, long minBatchSize, int batchMode, byte[] extensions) {
    byte[] vdafConfig = new SpecTls().u32(length).u32(chunkLength).bytes();
    return new SpecTls().opaque8("fixture".getBytes(StandardCharsets.US_ASCII))
        .opaque16("https://leader.example/".getBytes(StandardCharsets.US_ASCII))
        .opaque16("https://helper.example/".getBytes(StandardCharsets.US_ASCII))
        .u64(timePrecision).u64(minBatchSize).u8(batchMode).opaque16(new byte[0])
        .u32(4).opaque16(vdafConfig).opaque16(extensions).bytes();
  }

  /** AggregateShareAad { TaskID task_id; TaskConfiguration; CollectionJobReq; }. */
  public static byte[] aad(byte[] taskId, byte[] taskConfiguration, byte[] collectionJobReq) {
    return new SpecTls().raw(taskId).raw(taskConfiguration).raw(collectionJobReq).bytes();
  }

  /** HpkeCiphertext { uint8 config_id; opaque enc<1..2^16-1>; opaque payload<1..2^32-1>; }. */
  public record Ciphertext(int configId, byte[] enc, byte[] payload) {
    static Ciphertext read(ByteBuffer r) {
      int id = r.get() & 0xff;
      byte[] enc = new byte[r.getShort() & 0xffff];
      r.get(enc);
      byte[] payload = new byte[r.getInt()];
      r.get(payload);
      return new Ciphertext(id, enc, payload);
    }
  }

  /**
   * CollectionJobResp { uint64 report_count; Interval interval; HpkeCiphertext
   * leader_encrypted_agg_share; HpkeCiphertext helper_encrypted_agg_share; }.
   */
  public record Resp(long reportCount, long start, long duration, Ciphertext leader,
      Ciphertext helper) {
    /** Decodes the whole body; throws if anything is left over. */
    public static Resp decode(byte[] b) {
      ByteBuffer r = ByteBuffer.wrap(b);
      long count = r.getLong();
      long start = r.getLong();
      long duration = r.getLong();
      Ciphertext leader = Ciphertext.read(r);
      Ciphertext helper = Ciphertext.read(r);
      if (r.remaining() != 0) {
        throw new IllegalArgumentException(r.remaining() + " bytes after the CollectionJobResp");
      }
      return new Resp(count, start, duration, leader, helper);
    }
  }

  /** Opens one aggregate share sealed by {@code serverRole} (2 Leader, 3 Helper) at DAP-19. */
  public static byte[] open(HpkeKeyPair collector, int serverRole, Ciphertext ct, byte[] aad)
      throws InvalidCipherTextException {
    return open(SpecDraft.DAP_19, collector, serverRole, ct, aad);
  }

  /**
   * Opens one aggregate share sealed by {@code serverRole} (2 Leader, 3 Helper) with the info
   * string of {@code draft} ({@link SpecDraft#aggregateShareInfo}).
   */
  public static byte[] open(SpecDraft draft, HpkeKeyPair collector, int serverRole, Ciphertext ct,
      byte[] aad) throws InvalidCipherTextException {
    HPKE hpke = new HPKE(HPKE.mode_base, HPKE.kem_X25519_SHA256, HPKE.kdf_HKDF_SHA256,
        HPKE.aead_AES_GCM128);
    AsymmetricCipherKeyPair sk = hpke.deserializePrivateKey(collector.secretKey(),
        collector.publicKey());
    return hpke.open(ct.enc(), sk, draft.aggregateShareInfo(serverRole), aad, ct.payload(), null,
        null, null);
  }

  /** Returns the Field128 elements (16 bytes little-endian each) of an encoded share. */
  public static BigInteger[] field128(byte[] share) {
    if (share.length % 16 != 0) {
      throw new IllegalArgumentException("not a Field128 vector: " + share.length + " bytes");
    }
    BigInteger[] out = new BigInteger[share.length / 16];
    for (int i = 0; i < out.length; i++) {
      byte[] be = new byte[17];
      for (int k = 0; k < 16; k++) {
        be[16 - k] = share[16 * i + k];
      }
      out[i] = new BigInteger(be);
      if (out[i].compareTo(P) >= 0) {
        throw new IllegalArgumentException("element " + i + " is not below p");
      }
    }
    return out;
  }

  /** Unshards (adds the two shares modulo p) and lifts each value v to v or v - p. */
  public static BigInteger[] unshard(byte[] leaderShare, byte[] helperShare) {
    BigInteger[] a = field128(leaderShare);
    BigInteger[] b = field128(helperShare);
    BigInteger[] out = new BigInteger[a.length];
    for (int i = 0; i < a.length; i++) {
      BigInteger v = a[i].add(b[i]).mod(P);
      out[i] = v.compareTo(P.shiftRight(1)) > 0 ? v.subtract(P) : v;
    }
    return out;
  }
}
