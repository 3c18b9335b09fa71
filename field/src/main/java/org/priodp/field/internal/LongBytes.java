package org.priodp.field.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian {@code long} access to byte arrays, and unsigned 64x64 multiplication. */
public final class LongBytes {
  private static final VarHandle LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private LongBytes() {}

  /** Reads the little-endian {@code long} at {@code off}. */
  public static long getLE(byte[] b, int off) {
    return (long) LE.get(b, off);
  }

  /** Writes {@code v} little-endian at {@code off}. */
  public static void putLE(byte[] b, int off, long v) {
    LE.set(b, off, v);
  }

  /** Returns the high 64 bits of the unsigned 128-bit product {@code a * b}. */
  public static long unsignedMultiplyHigh(long a, long b) {
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }
}
