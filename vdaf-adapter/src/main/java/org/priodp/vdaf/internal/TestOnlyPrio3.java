package org.priodp.vdaf.internal;

import java.util.Objects;
import org.priodp.vdaf.Prio3;

/**
 * Conformance only: the Prio3 instances of the official test vectors that are no variant of the
 * specification: {@code Prio3HigherDegree}, a circuit with one call of the degree-3 gadget
 * PolyEval(x (x - 1) (x - 2)), which exists in the reference implementation to exercise gadgets
 * of degree above 2; and, for tests of the aggregators' side, Prio3 on any circuit ({@link
 * #onCircuit}), e.g. a variant's circuit whose encoding cheats as a malicious Client would.
 *
 * <p>This package is not exported by the module {@code org.priodp.vdaf}; the conformance vector
 * runner, which runs on the class path, reaches it there. {@link Prio3#variant()} of these
 * instances throws, as they have none.
 */
public final class TestOnlyPrio3 {
  /** Builds Prio3 on a circuit; registered by {@link Prio3} when it is initialized. */
  @FunctionalInterface
  public interface Builder {
    /** Returns Prio3 for the circuit, the algorithm id and name, PROOFS and SHARES. */
    Prio3 build(Circuit circuit, long algorithmId, String name, int proofs, int shares);
  }

  private static final Object LOCK = new Object();
  private static volatile Builder builder;

  private TestOnlyPrio3() {}

  /**
   * Registers Prio3's builder; called once, by Prio3's static initializer.
   *
   * @throws IllegalStateException if a builder is already registered
   */
  public static void register(Builder b) {
    Objects.requireNonNull(b, "builder");
    synchronized (LOCK) {
      if (builder != null) {
        throw new IllegalStateException("a Prio3 builder is already registered");
      }
      builder = b;
    }
  }

  /**
   * Returns the test vectors' Prio3HigherDegree for {@code shares} aggregators: Field64, one
   * proof, algorithm id 0xFFFFFFFF; it accepts the measurements 0, 1 and 2.
   *
   * @throws org.priodp.vdaf.VdafException if shares is outside [2, 255]
   */
  public static Prio3 higherDegree(int shares) {
    return builder().build(new Circuits.HigherDegree(), 0xFFFFFFFFL, "Prio3HigherDegree", 1, shares);
  }

  /**
   * Returns Prio3 on {@code circuit} with the given algorithm id, name, PROOFS and SHARES: tests
   * shard with it what an honest Client cannot produce (an encoding that breaks the variant's
   * rules) and check that the variant's own Prio3 refuses it in verification.
   *
   * @throws org.priodp.vdaf.VdafException if shares is outside [2, 255]
   */
  public static Prio3 onCircuit(Circuit circuit, long algorithmId, String name, int proofs, int shares) {
    Objects.requireNonNull(circuit, "circuit");
    return builder().build(circuit, algorithmId, name, proofs, shares);
  }

  private static Builder builder() {
    if (builder == null) {
      try {
        // Initializing Prio3 registers its builder (outside any lock of ours: no deadlock).
        Class.forName(Prio3.class.getName(), true, Prio3.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
    return Objects.requireNonNull(builder, "Prio3 did not register its builder");
  }
}
