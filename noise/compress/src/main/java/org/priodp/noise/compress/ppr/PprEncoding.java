package org.priodp.noise.compress.ppr;

import org.priodp.noise.compress.EliasCode;

/**
 * The result of one PPR encoding.
 *
 * @param index the index K >= 1 of the chosen shared sample (the decoder outputs Z_K)
 * @param iterations how many points of the Poisson process the encoder visited
 * @param evaluations how many of them needed the log density ratio (and the shared sample)
 * @param capped true if the encoder stopped at its iteration cap before it could certify the
 *     exact choice: then {@code index} is the best point among those visited, not an exact PPR
 *     sample (see {@link PprCodec})
 */
public record PprEncoding(long index, long iterations, long evaluations, boolean capped) {
  /** Validates index >= 1 and non-negative counts. */
  public PprEncoding {
    if (index < 1) {
      throw new IllegalArgumentException("PPR index must be >= 1, got " + index);
    }
    if (iterations < 0 || evaluations < 0) {
      throw new IllegalArgumentException("counts must be >= 0");
    }
  }

  /** Returns the length in bits of the Elias-delta code of the index. */
  public int bits() {
    return EliasCode.DELTA.length(index);
  }
}
