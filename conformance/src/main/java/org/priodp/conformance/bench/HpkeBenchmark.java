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

  /**
   * Prints, in one run, {@code openssl speed -seconds 3 ecdhx25519} (CPU time, and with {@code
   * -elapsed} wall time) and the thread CPU time of one open and one bare X25519 per engine,
   * measured in alternating rounds so that a loaded machine weighs on all of them alike. CPU time
   * is what {@code openssl speed} reports by default, so the ratios hold on a busy machine too.
   */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int ops = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    System.out.println("HPKE default engine: " + Hpke.implementation());
    java.util.List<String> names = new java.util.ArrayList<>();
    java.util.List<HpkeBenchmark> states = new java.util.ArrayList<>();
    for (Hpke.Engine e : Hpke.Engine.values()) {
      if (Hpke.available(e)) {
        HpkeBenchmark b = new HpkeBenchmark();
        b.engine = e.name();
        b.setup();
        names.add(e.name());
        states.add(b);
      }
    }
    java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
    double[][] best = new double[states.size()][2];
    for (double[] r : best) {
      java.util.Arrays.fill(r, Double.MAX_VALUE);
    }
    for (int round = -1; round < rounds; round++) {
      for (int i = 0; i < states.size(); i++) {
        for (int op = 0; op < 2; op++) {
          long t0 = cpu.getCurrentThreadCpuTime();
          for (int k = 0; k < ops; k++) {
            if (op == 0) {
              states.get(i).open();
            } else {
              states.get(i).x25519();
            }
          }
          double us = (cpu.getCurrentThreadCpuTime() - t0) / 1e3 / ops;
          if (round >= 0) {
            best[i][op] = Math.min(best[i][op], us);
          }
        }
      }
    }
    System.out.printf("%-14s %12s %12s   (thread CPU time, best of %d rounds of %d)%n", "engine",
        "open us", "x25519 us", rounds, ops);
    for (int i = 0; i < states.size(); i++) {
      System.out.printf("%-14s %12.1f %12.1f%n", names.get(i), best[i][0], best[i][1]);
    }
    for (String flag : new String[] {"", "-elapsed"}) {
      java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("openssl", "speed"));
      if (!flag.isEmpty()) {
        cmd.add(flag);
      }
      cmd.addAll(java.util.List.of("-seconds", "3", "ecdhx25519"));
      try {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        p.waitFor();
        for (String line : out.split("\n")) {
          if (line.contains("X25519")) {
            String[] f = line.trim().split("\\s+");
            double perSecond = Double.parseDouble(f[f.length - 1]);
            System.out.printf("%s: %.0f ops/s = %.1f us per X25519%n", String.join(" ", cmd),
                perSecond, 1e6 / perSecond);
          }
        }
      } catch (java.io.IOException e) {
        System.out.println(String.join(" ", cmd) + ": not run (" + e.getMessage() + ")");
      }
    }
  }
}
