package org.priodp.aggregator.hpke;

import java.util.Arrays;
import java.util.Objects;

/** The output of RFC 9180 SealBase (section 6.1): the encapsulated key and the ciphertext. */
public record HpkeSealed(byte[] enc, byte[] ciphertext) {
  /** Copies both arrays. */
  public HpkeSealed {
    enc = Objects.requireNonNull(enc, "enc").clone();
    ciphertext = Objects.requireNonNull(ciphertext, "ciphertext").clone();
  }

  /** Returns a copy of the encapsulated key. */
  @Override
  public byte[] enc() {
    return enc.clone();
  }

  /** Returns a copy of the ciphertext. */
  @Override
  public byte[] ciphertext() {
    return ciphertext.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HpkeSealed s && Arrays.equals(s.enc, enc) && Arrays.equals(s.ciphertext, ciphertext);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(enc) + Arrays.hashCode(ciphertext);
  }

  @Override
  public String toString() {
    return "HpkeSealed[enc=" + enc.length + " bytes, ciphertext=" + ciphertext.length + " bytes]";
  }
}
