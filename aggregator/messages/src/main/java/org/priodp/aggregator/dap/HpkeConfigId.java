package org.priodp.aggregator.dap;

/** An HPKE configuration identifier, {@code uint8 HpkeConfigId} (DAP-18 "Basic Type Definitions"). */
public record HpkeConfigId(int value) {
  /** Rejects values outside [0, 255]. */
  public HpkeConfigId {
    if (value < 0 || value > 0xff) {
      throw new IllegalArgumentException("HpkeConfigId out of uint8 range: " + value);
    }
  }
}
