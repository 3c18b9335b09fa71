package org.priodp.field.internal;

import java.math.BigInteger;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;

/**
 * Cached powers of the principal n-th roots of unity (VDAF draft-20, section "NTT-Friendly
 * Fields"), and the argument checks shared by the NTT and polynomial entry points.
 *
 * <p>The principal n-th root is {@code Wn = gen^(2^twoAdicity / n)}. A table for (field, n) holds
 * {@code Wn^0 .. Wn^(n-1)} in flat storage and {@code n^-1}; it is computed once, on first use,
 * and shared by all threads (tables are never modified after publication).
 */
public final class RootTables {
  /** The largest power of two an {@code int} can hold is 2^30. */
  private static final int MAX_LOG = 30;

  private static final AtomicReferenceArray<Table> FIELD64 = new AtomicReferenceArray<>(MAX_LOG + 1);
  private static final AtomicReferenceArray<Table> FIELD128 =
      new AtomicReferenceArray<>(MAX_LOG + 1);

  private RootTables() {}

  /** The powers of one principal root of unity; read-only by convention. */
  public static final class Table {
    /** The size n (a power of two). */
    public final int n;
    /** {@code Wn^i} for i in [0, n), flat storage. */
    public final long[] powers;
    /** {@code n^-1} as a one-element flat array. */
    public final long[] nInv;

    private Table(int n, long[] powers, long[] nInv) {
      this.n = n;
      this.powers = powers;
      this.nInv = nInv;
    }
  }

  /**
   * Returns the table of the principal n-th root for a size already validated by
   * {@link #logSize}.
   */
  public static Table table(PrimeField f, int logN) {
    AtomicReferenceArray<Table> cache = f instanceof Field64 ? FIELD64 : FIELD128;
    Table t = cache.get(logN);
    if (t == null) {
      t = compute(f, logN);
      if (!cache.compareAndSet(logN, null, t)) {
        t = cache.get(logN);
      }
    }
    return t;
  }

  /**
   * Returns the principal 2^logN-th root of unity {@code gen^(2^(twoAdicity - logN))} as a
   * one-element flat array, without building a table.
   */
  public static long[] root(PrimeField f, int logN) {
    long[] root = f.newArray(1);
    f.set(root, 0, f.generator());
    f.pow(root, 0, BigInteger.ONE.shiftLeft(f.twoAdicity() - logN), root, 0);
    return root;
  }

  private static Table compute(PrimeField f, int logN) {
    int n = 1 << logN;
    long[] root = root(f, logN);
    long[] powers = f.newArray(n);
    f.set(powers, 0, BigInteger.ONE);
    for (int i = 1; i < n; i++) {
      f.mul(powers, i - 1, root, 0, powers, i);
    }
    long[] nInv = f.newArray(1);
    f.set(nInv, 0, BigInteger.valueOf(n));
    f.inv(nInv, 0, nInv, 0);
    return new Table(n, powers, nInv);
  }

  /**
   * Returns log2(n) after checking that n is a power of two in [1, 2^twoAdicity].
   *
   * @param what names the size in the error message, for example "NTT size"
   * @throws IllegalArgumentException if n is not a power of two, or exceeds the order of the
   *     field's 2-power subgroup (or 2^30, the largest power of two an array index can reach)
   */
  public static int logSize(PrimeField f, long n, String what) {
    if (n < 1 || Long.bitCount(n) != 1) {
      throw new IllegalArgumentException(what + " must be a power of two >= 1, got " + n);
    }
    int log = Long.numberOfTrailingZeros(n);
    if (log > f.twoAdicity()) {
      throw new IllegalArgumentException(
          what + " 2^" + log + " exceeds the order 2^" + f.twoAdicity() + " of the " + f.name()
              + " subgroup generator");
    }
    if (log > MAX_LOG) {
      throw new IllegalArgumentException(
          what + " 2^" + log + " exceeds 2^" + MAX_LOG + ", the largest supported size");
    }
    return log;
  }

  /**
   * Returns the number of elements in a flat array.
   *
   * @param name names the array in the error message
   * @throws IllegalArgumentException if its length is not a multiple of {@code f.words()}
   * @throws NullPointerException if the array is null
   */
  public static int elements(PrimeField f, long[] a, String name) {
    Objects.requireNonNull(a, name);
    if (a.length % f.words() != 0) {
      throw new IllegalArgumentException(
          name + ": " + f.name() + " storage needs " + f.words() + " words per element, got "
              + a.length + " words");
    }
    return a.length / f.words();
  }

  /**
   * Checks that a flat array holds exactly {@code n} elements.
   *
   * @throws IllegalArgumentException naming the array, the expected and the actual length
   */
  public static void requireElements(PrimeField f, long[] a, int n, String name) {
    int len = elements(f, a, name);
    if (len != n) {
      throw new IllegalArgumentException(
          name + " must hold " + n + " " + f.name() + " elements, got " + len);
    }
  }
}
