package org.priodp.conformance.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSealed;
import org.priodp.aggregator.hpke.HpkeSuite;

/**
 * One HPKE open (RFC 9180 section 6.1 OpenBase, DHKEM(X25519, HKDF-SHA256) / HKDF-SHA256 /
 * AES-128-GCM) of a report-sized input share, with DAP-18's input share info and a 100-byte aad,
 * on each {@link Hpke.Engine}, next to one bare X25519 (RFC 7748 section 5) of each provider, in
 * microseconds per operation. The machine's native floor is measured beside it with {@code
 * openssl speed -seconds 3 ecdhx25519} (docs/PERFORMANCE.md "HPKE open").
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class HpkeBenchmark {
  /** The plaintext of a Histogram(10) input share: a seed-sized share plus framing. */
  private static final int PLAINTEXT = 177;

  @Param({"BOUNCY_CASTLE", "JDK", "JAVA", "OPENSSL", "NATIVE"})
  public String engine;

  private Hpke hpke;
  private HpkeKeyPair key;
  private HpkeSealed sealed;
  private byte[] info;
  private byte[] aad;
  private byte[] scalar;
  private byte[] peer;
  private Hpke.Engine kind;

  /** Generates the recipient key, seals one seeded plaintext and prepares the bare X25519. */
  @Setup
  public void setup() throws Exception {
    Hpke.Engine e = Hpke.Engine.valueOf(engine);
    if (!Hpke.available(e)) {
      throw new IllegalStateException("HPKE engine " + e + " is not available here");
    }
    System.out.println("[hpke] engine " + e + "; default in this process: " + Hpke.implementation());
    hpke = new Hpke(HpkeSuite.DAP_MANDATORY, e);
    SplittableRandom rnd = new SplittableRandom(27);
    key = hpke.generateKeyPair();
    info = "dap-18 input share\u0001\u0002".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    aad = new byte[100];
    rnd.nextBytes(aad);
    byte[] pt = new byte[PLAINTEXT];
    rnd.nextBytes(pt);
    sealed = hpke.seal(key.publicKey(), info, aad, pt);
    scalar = key.secretKey();
    peer = sealed.enc();
    kind = e;
  }

  /** One complete OpenBase: decapsulation, key schedule and AES-128-GCM open. */
  @Benchmark
  public byte[] open() throws HpkeException {
    return hpke.open(key, sealed.enc(), info, aad, sealed.ciphertext());
  }

  /**
   * One bare X25519 of the engine's key agreement ({@link Hpke#x25519}: Bouncy Castle's rfc7748
   * X25519, SunEC's XDH with key parsing for JDK, OpenSSL's libcrypto for OPENSSL and NATIVE),
   * the floor under {@link #open}.
   */
  @Benchmark
  public byte[] x25519() throws HpkeException {
    return Hpke.x25519(kind, scalar, peer);
  }
}
