package org.priodp.noise.compress.ppr;

import java.util.Objects;
import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.SharedRandomness;

/**
 * Distributed mean estimation with the PPR-compressed Gaussian mechanism (the paper's Sec. 5 and
 * its sliced variant of App. K): client i's vector x_i (||x_i||_2 <= 1, dimension d) is cut into
 * chunks of dimension m (the last one may be shorter); each chunk plus N(0, sigma^2 I) is
 * compressed by PPR ({@link GaussianPprChunk}, report i * chunks + j of the shared randomness).
 * The server decodes every chunk and averages: the decoded vectors are exactly x_i + N(0,
 * sigma^2 I), so the mean is unbiased with MSE d sigma^2 / n.
 *
 * <p><b>Privacy.</b> Central: the decoded sum carries N(0, n sigma^2 I), so it is the Gaussian
 * mechanism with noise multiplier sigma sqrt(n), whose (epsilon, delta) {@link RenyiAccountant}
 * computes for zero-out neighbours (one client's vector replaced by 0, n fixed; see there for
 * other relations). Local, against the server that sees the indices and the shared randomness:
 * chunk j with norm bound c_j is the Gaussian mechanism with L2 sensitivity 2 c_j (any two
 * chunks of norm at most c_j), which is (epsilon_j, delta_j)-DP for any delta_j with
 * epsilon_j = {@code RenyiAccountant.gaussianEpsilon(sigma / (2 c_j), delta_j)}; it is not
 * pure epsilon-DP, so Theorem 4.5 does not apply. By Theorem 4.6 the PPR index of chunk j is
 * (2 alpha epsilon_j, 2 delta_j)-LDP ({@link PprGuarantees#localApproxDp}), and since the
 * chunks use disjoint shared randomness a client's whole message is, by basic composition,
 * (sum_j 2 alpha epsilon_j, sum_j 2 delta_j)-LDP.
 */
public final class PprGaussianMean {
  private final int d;
  private final int chunkDim;
  private final double alpha;
  private final long cap;
  private final GaussianPprChunk[] chunks;

  /**
   * Sets up the mechanism.
   *
   * @param d the vector dimension
   * @param chunkDim the chunk dimension m (d for the unsliced variant)
   * @param sigma each client's noise standard deviation
   * @param chunkNormBound the bound on every chunk's L2 norm (1 in general; sqrt(m/d) for vectors
   *     with entries +-1/sqrt(d))
   * @param alpha the PPR parameter
   * @param cap the encoder's iteration cap per chunk
   */
  public PprGaussianMean(int d, int chunkDim, double sigma, double chunkNormBound, double alpha, long cap) {
    if (d < 1 || chunkDim < 1 || chunkDim > d) {
      throw new IllegalArgumentException("need 1 <= chunk dimension <= d, got " + chunkDim + " and " + d);
    }
    this.d = d;
    this.chunkDim = chunkDim;
    this.alpha = alpha;
    this.cap = cap;
    int count = (d + chunkDim - 1) / chunkDim;
    chunks = new GaussianPprChunk[count];
    for (int j = 0; j < count; j++) {
      int len = Math.min(chunkDim, d - j * chunkDim);
      chunks[j] = GaussianPprChunk.of(len, sigma, Math.min(1, chunkNormBound * Math.sqrt((double) len / chunkDim)));
    }
  }

  /** Returns the number of chunks. */
  public int chunkCount() {
    return chunks.length;
  }

  /** Returns chunk j's mechanism. */
  public GaussianPprChunk chunk(int j) {
    return chunks[j];
  }

  /** One client's message: one PPR encoding per chunk. */
  public record ClientMessage(PprEncoding[] chunks) {
    /** Total Elias-delta bits. */
    public long bits() {
      long b = 0;
      for (PprEncoding e : chunks) {
        b += e.bits();
      }
      return b;
    }

    /** Returns the chunks' indices K, in chunk order: what {@link #decode} takes. */
    public long[] indices() {
      long[] idx = new long[chunks.length];
      for (int j = 0; j < idx.length; j++) {
        idx[j] = chunks[j].index();
      }
      return idx;
    }

    /** How many chunks hit the iteration cap. */
    public int capped() {
      int c = 0;
      for (PprEncoding e : chunks) {
        if (e.capped()) {
          c++;
        }
      }
      return c;
    }
  }

  /** Encodes client {@code client}'s vector with its local randomness. */
  public ClientMessage encode(SharedRandomness shared, long client, double[] x, RandomSource local) {
    Objects.requireNonNull(shared, "shared");
    if (x.length != d) {
      throw new IllegalArgumentException("vector must have " + d + " entries, got " + x.length);
    }
    double n2 = 0;
    for (double xi : x) {
      n2 += xi * xi;
    }
    if (Math.sqrt(n2) > 1 + 1e-12) {
      throw new IllegalArgumentException("vector norm " + Math.sqrt(n2) + " exceeds 1");
    }
    PprEncoding[] out = new PprEncoding[chunks.length];
    for (int j = 0; j < chunks.length; j++) {
      GaussianPprChunk c = chunks[j];
      double[] part = java.util.Arrays.copyOfRange(x, j * chunkDim, j * chunkDim + c.dim());
      out[j] = codec(shared, client, j).encode(c.target(part), local);
    }
    return new ClientMessage(out);
  }

  /** Decodes a client's message into its noisy vector x + N(0, sigma^2 I). */
  public double[] decode(SharedRandomness shared, long client, long[] indices) {
    if (indices.length != chunks.length) {
      throw new IllegalArgumentException("need " + chunks.length + " chunk indices, got " + indices.length);
    }
    double[] y = new double[d];
    for (int j = 0; j < chunks.length; j++) {
      double[] z = codec(shared, client, j).decode(indices[j]);
      System.arraycopy(z, 0, y, j * chunkDim, z.length);
    }
    return y;
  }

  private PprCodec<double[]> codec(SharedRandomness shared, long client, int j) {
    long report = Math.addExact(Math.multiplyExact(client, (long) chunks.length), j);
    return new PprCodec<>(chunks[j].proposal(), shared, report, alpha, cap);
  }

  /**
   * The Theorem 4.3 bound on a client's expected bits with the Shannon code for Zipf, summed over
   * chunks, for the worst case chunk norms.
   */
  public double bitsBound() {
    double total = 0;
    for (GaussianPprChunk c : chunks) {
      total += PprGuarantees.shannonCodeBits(PprGuarantees.expectedLog2IndexBound(c.worstKlBits(), alpha));
    }
    return total;
  }
}
