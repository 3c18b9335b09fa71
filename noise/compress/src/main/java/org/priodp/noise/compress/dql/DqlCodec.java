package org.priodp.noise.compress.dql;

import java.util.Objects;
import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.BitReader;
import org.priodp.noise.compress.BitWriter;
import org.priodp.noise.compress.EliasCode;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.compress.internal.Uniforms;

/**
 * The dyadic quantized Laplace (DQL) codec: Algorithm 1 (encoder) and Algorithm 2 (decoder) of
 * the DQL paper, for scalars and, coordinate by coordinate with independent randomness, for
 * vectors. The decoded value is the input plus Laplace(1/epsilon) noise (Proposition 6), and
 * the shared randomness together with the description reveals only ell * epsilon * d-private
 * information about the input (Theorem 7).
 *
 * <p>The encoder takes T and the dither U from the shared stream (53 bits each, in that order,
 * then skips 22 bits so that every value uses exactly one 128-bit block, see {@link
 * SharedRandomness}) and the component choice V, the geometric variate and the local dither W from the injected
 * local source (53 bits each). It computes M = n + k + round(f + W - U), where n + f is
 * epsilon x / delta_T split into its integer and fractional parts (exact in binary floating
 * point) and k is the vertex drawn by {@link DqlLevel}; the decoder returns
 * delta_T (M + U) / epsilon.
 *
 * <p><b>Domain.</b> |epsilon x| must be at most {@link #maxAbsScaledInput()} =
 * delta_0 2^(60 - maxLevel) (about 160 for ell = 2, 8000 for ell = 20), so that every possible
 * description fits the signed Elias codes (|M| < 2^62); the check does not depend on the
 * randomness. <b>Residual error.</b> Besides the 2^-53 grid of the uniforms, epsilon x /
 * delta_T, M + U and the geometric variate carry one double rounding each, so X-hat - x equals
 * Laplace(1/epsilon) noise up to a few ulps of |epsilon x| + |noise|, scaled by 1/epsilon;
 * thread-safety: instances are immutable and safe to share.
 */
public final class DqlCodec {
  /** Shared bits skipped after T and U so that a value uses 128 bits: 128 - 2 * 53. */
  private static final int SHARED_PADDING = 22;

  private final DqlParameters parameters;
  private final DqlMixture mixture;
  private final EliasCode code;

  private DqlCodec(DqlParameters parameters, DqlMixture mixture, EliasCode code) {
    this.parameters = parameters;
    this.mixture = mixture;
    this.code = code;
  }

  /** Returns the codec for these parameters, writing descriptions with {@code code}. */
  public static DqlCodec of(DqlParameters parameters, EliasCode code) {
    Objects.requireNonNull(code, "code");
    return new DqlCodec(parameters, DqlMixture.of(parameters.ell()), code);
  }

  /** Returns the parameters. */
  public DqlParameters parameters() {
    return parameters;
  }

  /** Returns the mixture of levels (depends on ell only). */
  public DqlMixture mixture() {
    return mixture;
  }

  /** Returns the entropy code of the descriptions. */
  public EliasCode code() {
    return code;
  }

  /** Returns the largest |epsilon x| the encoder accepts: delta_0 2^(60 - maxLevel). */
  public double maxAbsScaledInput() {
    return Math.scalb(mixture.delta0(), 60 - mixture.maxLevel());
  }

  /**
   * Encodes one value (Algorithm 1): T and U from {@code shared}, everything else from
   * {@code local}.
   *
   * @throws IllegalArgumentException if x is not finite or |epsilon x| exceeds {@link
   *     #maxAbsScaledInput()}
   */
  public long encode(double x, RandomSource shared, RandomSource local) {
    double y = scaled(x);
    DqlLevel level = mixture.level(mixture.sampleLevel(shared));
    double u = Uniforms.centered(shared);
    shared.nextBits(SHARED_PADDING);
    return encodeAt(level, y, u, local);
  }

  /** Decodes one description (Algorithm 2) with the same shared stream the encoder used. */
  public double decode(long m, RandomSource shared) {
    int t = mixture.sampleLevel(shared);
    double u = Uniforms.centered(shared);
    shared.nextBits(SHARED_PADDING);
    return Math.scalb(mixture.delta0() * ((double) m + u), -t) / parameters.epsilon();
  }

  /**
   * Encodes a vector, coordinate i with block i of the report's shared stream ({@code
   * shared.stream(report, i)}), into one bit stream of signed Elias codes.
   */
  public DqlDescription encode(double[] x, SharedRandomness shared, long report, RandomSource local) {
    for (double v : x) {
      scaled(v); // validate everything before drawing any randomness
    }
    BitWriter out = new BitWriter();
    RandomSource stream = shared.report(report);
    for (double v : x) {
      code.writeSigned(out, encode(v, stream, local));
    }
    return new DqlDescription(out.toByteArray(), out.bitLength(), x.length);
  }

  /** Decodes a vector description made by {@link #encode(double[], SharedRandomness, long, RandomSource)}. */
  public double[] decode(DqlDescription description, SharedRandomness shared, long report) {
    return decode(description.bytes(), description.count(), shared, report);
  }

  /**
   * Decodes {@code count} values from a bit stream of signed Elias codes.
   *
   * @throws IllegalArgumentException if the stream is truncated, malformed, or longer than the
   *     count values plus zero padding
   */
  public double[] decode(byte[] description, int count, SharedRandomness shared, long report) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, got " + count);
    }
    BitReader in = new BitReader(description);
    double[] out = new double[count];
    RandomSource stream = shared.report(report);
    for (int i = 0; i < count; i++) {
      out[i] = decode(code.readSigned(in), stream);
    }
    if (in.remaining() >= 8 || !in.restIsZero()) {
      throw new IllegalArgumentException(
          "description has " + in.remaining() + " bits left after " + count + " values (wrong --count or trailing data)");
    }
    return out;
  }

  /** Algorithm 1, lines 5-11, for scaled input y = epsilon x at a given level and dither. */
  long encodeAt(DqlLevel level, double y, double u, RandomSource local) {
    double z = y / level.delta();
    double n = Math.floor(z);
    double f = z - n; // exact
    long k = level.sampleVertex(local);
    double w = Uniforms.centered(local);
    long m = Math.addExact(Math.addExact((long) n, k), (long) Math.floor(f + w - u + 0.5));
    if (m > EliasCode.MAX_SIGNED || m < -EliasCode.MAX_SIGNED) {
      throw new ArithmeticException("description out of range: " + m);
    }
    return m;
  }

  private double scaled(double x) {
    if (!Double.isFinite(x)) {
      throw new IllegalArgumentException("input must be a finite number, got " + x);
    }
    double y = parameters.epsilon() * x;
    if (!(Math.abs(y) <= maxAbsScaledInput())) {
      throw new IllegalArgumentException(String.format(
          "|epsilon * x| = %.6g exceeds %.6g, the largest input whose descriptions fit in 64 bits for ell = %s",
          Math.abs(y), maxAbsScaledInput(), parameters.ell()));
    }
    return y;
  }
}
