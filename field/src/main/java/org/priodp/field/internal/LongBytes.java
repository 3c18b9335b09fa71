package org.priodp.field.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian {@code long} access to byte arrays, and unsigned 64x64 multiplication for the
 * field kernels (VDAF draft-20, section "Finite Field Arithmetic").
 *
 * <p>The high word of an unsigned product is {@code Math.unsignedMultiplyHigh} (an intrinsic,
 * one {@code mul}) when the running JDK has it (Java 18 and later), bound once at class
 * initialization through a constant {@link MethodHandle} that the JIT inlines; on Java 17 it is
 * the signed {@link Math#multiplyHigh} plus the two sign corrections. {@link #intrinsic()} says
 * which path this JVM runs; both give the same results.
 */
public final class LongBytes {
  private static final VarHandle LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** {@code Math.unsignedMultiplyHigh(long, long)}, or null on Java 17. */
  private static final MethodHandle UNSIGNED_MULTIPLY_HIGH = findUnsignedMultiplyHigh();

  private static final boolean INTRINSIC = UNSIGNED_MULTIPLY_HIGH != null;

  private LongBytes() {}

  private static MethodHandle findUnsignedMultiplyHigh() {
    try {
      return MethodHandles.publicLookup()
          .findStatic(
              Math.class,
              "unsignedMultiplyHigh",
              MethodType.methodType(long.class, long.class, long.class));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null; // Java 17: the portable form below
    }
  }

  /** Reads the little-endian {@code long} at {@code off}. */
  public static long getLE(byte[] b, int off) {
    return (long) LE.get(b, off);
  }

  /** Writes {@code v} little-endian at {@code off}. */
  public static void putLE(byte[] b, int off, long v) {
    LE.set(b, off, v);
  }

  /**
   * Returns true if {@link #unsignedMultiplyHigh} runs the JDK's intrinsic {@code
   * Math.unsignedMultiplyHigh} (Java 18+), false if it runs {@link
   * #portableUnsignedMultiplyHigh}.
   */
  public static boolean intrinsic() {
    return INTRINSIC;
  }

  /**
   * Returns the high 64 bits of the unsigned 128-bit product {@code a * b}. Its bytecode and that
   * of both paths stay under the JIT's 35-byte limit for inlining at any call site.
   */
  public static long unsignedMultiplyHigh(long a, long b) {
    return INTRINSIC ? intrinsicUnsignedMultiplyHigh(a, b) : portableUnsignedMultiplyHigh(a, b);
  }

  private static long intrinsicUnsignedMultiplyHigh(long a, long b) {
    try {
      return (long) UNSIGNED_MULTIPLY_HIGH.invokeExact(a, b);
    } catch (Throwable t) {
      throw new AssertionError("Math.unsignedMultiplyHigh cannot throw", t);
    }
  }

  /**
   * Returns the high 64 bits of the unsigned product {@code a * b} from the signed {@link
   * Math#multiplyHigh} (Java 17): a negative operand read as unsigned is 2^64 larger, which adds
   * the other operand to the high word.
   */
  public static long portableUnsignedMultiplyHigh(long a, long b) {
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }
}
