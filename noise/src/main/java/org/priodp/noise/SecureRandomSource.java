package org.priodp.noise;

import java.security.SecureRandom;
import java.util.Objects;

/** The production {@link RandomSource}: a {@link SecureRandom} read 4 KiB at a time. */
public final class SecureRandomSource extends BlockRandomSource {
  private final SecureRandom random;

  /** Wraps the given generator; it is used from one thread at a time. */
  public SecureRandomSource(SecureRandom random) {
    super(4096);
    this.random = Objects.requireNonNull(random, "random");
  }

  @Override
  protected void fill(byte[] out) {
    random.nextBytes(out);
  }
}
