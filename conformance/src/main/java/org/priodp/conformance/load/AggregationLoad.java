package org.priodp.conformance.load;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.priodp.aggregator.cli.LogFormat;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSealed;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.server.Aggregator;
import org.priodp.aggregator.server.AggregatorConfig;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * A bounded load generator that plays the DAP-18 Leader against the Helper's aggregation jobs on
 * loopback (issue 16): it provisions a fresh time-interval task in-process, starts a Helper
 * {@link Aggregator} on 127.0.0.1 over the given store, reads its {@code hpke_config}, prepares every
 * report (Prio3 shard, Leader's verify init, Helper's input share sealed to the advertised key)
 * and every AggregationJobInitReq body before the clock starts, then posts the jobs with a fixed
 * number in flight. Every answer is checked: 200, one VerifyResp per report, each of type
 * continue carrying a ping-pong finish. In the same run it times a bare HPKE open of the same kind
 * of ciphertext (same info, AAD and plaintext sizes), single-threaded, for the ratio (Helper time
 * per report per core) / (bare open).
 */
public final class AggregationLoad {
  private static final long PRECISION = 3600;
  private static final String TOKEN = "loadgen-leader-token_0123456789";

  private AggregationLoad() {}

  /**
   * The VDAFs the generator can drive; each draws its random measurements and says what one
   * measurement adds to the aggregate.
   */
  public enum Vdaf {
    /** Prio3Histogram(length 10, chunk 4). */
    HISTOGRAM10(new Prio3Variant.Histogram(10, 4)) {
      @Override
      List<BigInteger> measurement(SecureRandom random) {
        return List.of(BigInteger.valueOf(random.nextInt(10)));
      }

      @Override
      List<BigInteger> contribution(List<BigInteger> measurement) {
        List<BigInteger> out = new ArrayList<>(java.util.Collections.nCopies(10, BigInteger.ZERO));
        out.set(measurement.get(0).intValueExact(), BigInteger.ONE);
        return out;
      }
    },
    /** Prio3SumVec(length 100, max 255, chunk 10). */
    SUMVEC100(Prio3Variant.SumVec.of(100, BigInteger.valueOf(255), 10)) {
      @Override
      List<BigInteger> measurement(SecureRandom random) {
        List<BigInteger> m = new ArrayList<>(100);
        for (int i = 0; i < 100; i++) {
          m.add(BigInteger.valueOf(random.nextInt(256)));
        }
        return m;
      }

      @Override
      List<BigInteger> contribution(List<BigInteger> measurement) {
        return measurement;
      }
    };

    final Prio3Variant variant;

    Vdaf(Prio3Variant variant) {
      this.variant = variant;
    }

    /** Parses the command-line name ({@code histogram10}, {@code sumvec100}). */
    public static Vdaf parse(String s) {
      return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }

    /** Returns a random valid measurement. */
    abstract List<BigInteger> measurement(SecureRandom random);

    /** Returns what the measurement adds to the aggregate, one integer per output element. */
    abstract List<BigInteger> contribution(List<BigInteger> measurement);
  }

  /**
   * The figures of one run.
   *
   * @param reports reports accepted
   * @param jobs jobs posted
   * @param concurrency jobs in flight
   * @param seconds wall time of the posting phase
   * @param cores processors available to the JVM
   * @param bareOpenMicros mean time of one bare HPKE open, single thread, in microseconds
   */
  public record Result(long reports, int jobs, int concurrency, double seconds, int cores,
      double bareOpenMicros) {
    /** Returns reports accepted per second. */
    public double reportsPerSecond() {
      return reports / seconds;
    }

    /** Returns the Helper's wall time per report times the cores, in microseconds. */
    public double perReportCoreMicros() {
      return seconds * cores * 1e6 / reports;
    }

    /** Returns (per-report Helper time per core) / (bare HPKE open). */
    public double ratio() {
      return perReportCoreMicros() / bareOpenMicros;
    }
  }

  /** Runs against a fresh Helper over the store at {@code jdbcUrl}. */
  public static Result run(Vdaf vdaf, int reports, int jobSize, int concurrency, String jdbcUrl,
      Properties properties, PrintWriter progress) throws Exception {
    if (reports < 1 || reports > 1_000_000 || jobSize < 1 || jobSize > 10_000 || concurrency < 1
        || concurrency > 64) {
      throw new IllegalArgumentException("need 1 <= reports <= 1000000, 1 <= job size <= 10000,"
          + " 1 <= concurrency <= 64");
    }
    SecureRandom random = new SecureRandom();
    byte[] taskId = new byte[32];
    byte[] verifyKey = new byte[32];
    random.nextBytes(taskId);
    random.nextBytes(verifyKey);
    Hpke hpke = new Hpke(HpkeSuite.DAP_MANDATORY);
    HpkeKeyPair collector = hpke.generateKeyPair();
    HpkeConfig collectorConfig = new HpkeConfig(new HpkeConfigId(7),
        HpkeSuite.DAP_MANDATORY.kem(), HpkeSuite.DAP_MANDATORY.kdf(),
        HpkeSuite.DAP_MANDATORY.aead(), collector.publicKey());
    TaskConfiguration config = TaskDefinition.configurationFor(vdaf.variant,
        "loadgen".getBytes(StandardCharsets.US_ASCII), "https://leader.example/",
        "https://helper.example/dap/", PRECISION, 1, BatchMode.TIME_INTERVAL, List.of());
    TaskDefinition definition = new TaskDefinition(new TaskId(taskId), Role.HELPER, config,
        vdaf.variant, new DpStrategy.NoDifferentialPrivacy(), SensitivityRule.PRIODP,
        collectorConfig, AuthToken.of(TOKEN)).withVdafVerifyKeys(Map.of(0, verifyKey));
    byte[] configBytes = config.encode();
    byte[] ctx = definition.dapVersion().vdafContext(definition.taskId());
    byte[] info = definition.dapVersion().inputShareInfo(Role.HELPER);

    try (Datastore store = JdbcDatastore.open(jdbcUrl, properties)) {
      Aggregator server = Aggregator.start(AggregatorConfig.builder(List.of(definition), store)
          .build());
      int port = server.port();
      AutoCloseable quiet = LogFormat.quiet("org.priodp.aggregator.request");
      try {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<byte[]> hc = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/dap/hpke_config")).GET().build(),
            HttpResponse.BodyHandlers.ofByteArray());
        if (hc.statusCode() != 200) {
          throw new IllegalStateException("hpke_config: status " + hc.statusCode());
        }
        ByteBuffer b = ByteBuffer.wrap(hc.body());
        b.getShort();
        int helperConfigId = b.get() & 0xff;
        b.getShort();
        b.getShort();
        b.getShort();
        byte[] helperPk = new byte[b.getShort() & 0xffff];
        b.get(helperPk);

        int jobs = (reports + jobSize - 1) / jobSize;
        progress.printf("loadgen: helper on 127.0.0.1:%d, %s, preparing %d reports in %d jobs%n",
            port, vdaf.name().toLowerCase(java.util.Locale.ROOT), reports, jobs);
        progress.flush();
        long time = System.currentTimeMillis() / 1000 / PRECISION;
        byte[][] bodies = new byte[jobs][];
        int[] sizes = new int[jobs];
        byte[][] sample = new byte[3][];
        IntStream.range(0, jobs).parallel().forEach(j -> {
          SecureRandom r = new SecureRandom();
          Prio3 prio3 = new Prio3(vdaf.variant);
          Hpke h = new Hpke(HpkeSuite.DAP_MANDATORY);
          int n = Math.min(jobSize, reports - j * jobSize);
          sizes[j] = n;
          Tls req = new Tls().u8(0).opaque32(new byte[0]).opaque16(new byte[0]);
          try {
            for (int i = 0; i < n; i++) {
              byte[] id = new byte[16];
              r.nextBytes(id);
              byte[] rand = new byte[prio3.randSize()];
              r.nextBytes(rand);
              Prio3.ShardResult shard = prio3.shard(ctx, vdaf.measurement(r), id, rand);
              Prio3.VerifyInitResult leader = prio3.verifyInit(verifyKey, ctx, 0, id,
                  shard.publicShare(), shard.inputShares().get(0));
              byte[] publicShare = shard.publicShare().encode();
              byte[] metadata = new Tls().raw(id).u64(time).opaque16(new byte[0]).bytes();
              byte[] aad = new Tls().raw(taskId).raw(configBytes).raw(metadata)
                  .opaque32(publicShare).bytes();
              byte[] plaintext = new Tls().opaque16(new byte[0])
                  .opaque32(shard.inputShares().get(1).encode()).bytes();
              HpkeSealed sealed = h.seal(helperPk, info, aad, plaintext);
              if (j == 0 && i == 0) {
                sample[0] = aad;
                sample[1] = plaintext;
              }
              byte[] ciphertext = new Tls().u8(helperConfigId).opaque16(sealed.enc())
                  .opaque32(sealed.ciphertext()).bytes();
              byte[] pingPong = new Tls().u8(0).opaque32(leader.verifierShare().encode()).bytes();
              req.raw(metadata).opaque32(publicShare).raw(ciphertext).opaque32(pingPong);
            }
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          bodies[j] = req.bytes();
        });

        URI uri = URI.create("http://127.0.0.1:" + port + "/dap/tasks/"
            + Base64.getUrlEncoder().withoutPadding().encodeToString(taskId)
            + "/aggregation_jobs");
        Semaphore inFlight = new Semaphore(concurrency);
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger accepted = new AtomicInteger();
        List<String> firstFailure = new ArrayList<>();
        CompletableFuture<?>[] all = new CompletableFuture<?>[jobs];
        long start = System.nanoTime();
        for (int j = 0; j < jobs; j++) {
          inFlight.acquire();
          int expected = sizes[j];
          HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(300))
              .header("Authorization", "Bearer " + TOKEN)
              .header("Content-Type", "application/ppm-dap;message=aggregation-job-init-req")
              .POST(HttpRequest.BodyPublishers.ofByteArray(bodies[j])).build();
          all[j] = client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
              .whenComplete((resp, e) -> {
                inFlight.release();
                String problem = e != null ? e.toString()
                    : resp.statusCode() != 200 ? "status " + resp.statusCode() + ": "
                        + new String(resp.body(), StandardCharsets.UTF_8)
                    : check(resp.body(), expected);
                if (problem == null) {
                  accepted.addAndGet(expected);
                } else if (failures.getAndIncrement() == 0) {
                  synchronized (firstFailure) {
                    firstFailure.add(problem);
                  }
                }
              });
        }
        CompletableFuture.allOf(all).exceptionally(e -> null).get();
        double seconds = (System.nanoTime() - start) / 1e9;
        if (failures.get() > 0) {
          throw new IllegalStateException(failures.get() + " of " + jobs + " jobs failed, first: "
              + firstFailure.get(0));
        }
        double bare = bareOpenMicros(sample[0], sample[1], info);
        return new Result(accepted.get(), jobs, concurrency, seconds,
            Runtime.getRuntime().availableProcessors(), bare);
      } finally {
        try {
          quiet.close();
        } finally {
          server.close();
        }
      }
    }
  }

  /** Checks an AggregationJobResp: {@code expected} VerifyResps, each continue with a finish. */
  static String check(byte[] body, int expected) {
    ByteBuffer b = ByteBuffer.wrap(body);
    int n = 0;
    while (b.hasRemaining()) {
      b.position(b.position() + 16);
      int type = b.get() & 0xff;
      if (type != 0) {
        return "report " + n + ": VerifyResp type " + type
            + (type == 2 && b.hasRemaining() ? " error " + (b.get() & 0xff) : "");
      }
      int len = b.getInt();
      if (len < 1 || b.get(b.position()) != 2) {
        return "report " + n + ": not a ping-pong finish";
      }
      b.position(b.position() + len);
      n++;
    }
    return n == expected ? null : n + " VerifyResps for " + expected + " reports";
  }

  /** Mean microseconds of one bare HPKE open of a ciphertext of the same kind, single thread. */
  static double bareOpenMicros(byte[] aad, byte[] plaintext, byte[] info) throws Exception {
    Hpke hpke = new Hpke(HpkeSuite.DAP_MANDATORY);
    HpkeKeyPair key = hpke.generateKeyPair();
    HpkeSealed sealed = hpke.seal(key.publicKey(), info, aad, plaintext);
    for (int i = 0; i < 2000; i++) {
      hpke.open(key, sealed.enc(), info, aad, sealed.ciphertext());
    }
    int n = 5000;
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      hpke.open(key, sealed.enc(), info, aad, sealed.ciphertext());
    }
    return (System.nanoTime() - t0) / 1e3 / n;
  }

  /** A TLS-presentation-language writer (RFC 8446 section 3), big-endian. */
  private static final class Tls {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Tls u8(int v) {
      out.write(v);
      return this;
    }

    Tls u16(int v) {
      out.write(v >>> 8);
      out.write(v);
      return this;
    }

    Tls u32(long v) {
      for (int s = 24; s >= 0; s -= 8) {
        out.write((int) (v >>> s));
      }
      return this;
    }

    Tls u64(long v) {
      for (int s = 56; s >= 0; s -= 8) {
        out.write((int) (v >>> s));
      }
      return this;
    }

    Tls raw(byte[] b) {
      out.writeBytes(b);
      return this;
    }

    Tls opaque16(byte[] b) {
      return u16(b.length).raw(b);
    }

    Tls opaque32(byte[] b) {
      return u32(b.length).raw(b);
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }
}
