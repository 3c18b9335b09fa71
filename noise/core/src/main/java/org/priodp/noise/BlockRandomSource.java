package org.priodp.noise;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A {@link RandomSource} that fetches bytes in blocks from an underlying generator and hands
 * them out bit by bit, counting what it hands out.
 *
 * <p>A subclass may ask for <em>erasure after use</em>: each 64-bit word of the block is
 * overwritten with zeros as soon as it is taken, so that the buffer never holds bits that were
 * already handed out (what a fast-key-erasure generator needs for backtracking resistance; see
 * {@link FastKeyErasureRandomSource}). The word being handed out bit by bit is kept in a field
 * that holds only its not-yet-handed-out bits (handed-out bits are shifted out), so with erasure
 * after use this object holds no bit it has handed out. {@link #fill} writes into the block
 * itself; an implementation should compute straight into it rather than through a copy it
 * would then have to erase.
 */
public abstract class BlockRandomSource implements RandomSource {
  private static final VarHandle LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final byte[] block;
  private int blockPos;
  private long word;
  private int wordBits;
  private long consumed;
  private final boolean eraseAfterUse;

  /** Creates a source that refills {@code blockSize} bytes (a multiple of 8) at a time. */
  protected BlockRandomSource(int blockSize) {
    this(blockSize, false);
  }

  /**
   * Creates a source that refills {@code blockSize} bytes (a multiple of 8) at a time and, if
   * {@code eraseAfterUse}, zeroes each word of the block as soon as it is taken.
   */
  protected BlockRandomSource(int blockSize, boolean eraseAfterUse) {
    this.eraseAfterUse = eraseAfterUse;
    if (blockSize <= 0 || blockSize % 8 != 0) {
      throw new IllegalArgumentException("block size must be a positive multiple of 8, got " + blockSize);
    }
    this.block = new byte[blockSize];
    this.blockPos = blockSize;
  }

  /** Fills {@code out} entirely with fresh random bytes. */
  protected abstract void fill(byte[] out);

  private long nextWord() {
    if (blockPos == block.length) {
      fill(block);
      blockPos = 0;
    }
    long w = (long) LE.get(block, blockPos);
    if (eraseAfterUse) {
      LE.set(block, blockPos, 0L);
    }
    blockPos += 8;
    return w;
  }

  @Override
  public final int nextBit() {
    if (wordBits == 0) {
      word = nextWord();
      wordBits = 64;
    }
    int b = (int) (word & 1);
    word >>>= 1;
    wordBits--;
    consumed++;
    return b;
  }

  @Override
  public final long nextBits(int k) {
    if (k < 0 || k > 64) {
      throw new IllegalArgumentException("can take 0 to 64 bits at a time, asked for " + k);
    }
    if (k == 0) {
      return 0;
    }
    consumed += k;
    if (k <= wordBits) {
      long r = k == 64 ? word : word & ((1L << k) - 1);
      word = k == 64 ? 0 : word >>> k;
      wordBits -= k;
      return r;
    }
    // take what is left of the current word, then the rest from a fresh one
    long low = word;
    int have = wordBits;
    long fresh = nextWord();
    int need = k - have;
    long high = need == 64 ? fresh : fresh & ((1L << need) - 1);
    word = need == 64 ? 0 : fresh >>> need;
    wordBits = 64 - need;
    return low | (high << have);
  }

  /** Returns 64 random bits: the same bits as {@code nextBits(64)}, faster on word boundaries. */
  @Override
  public final long nextLong() {
    if (wordBits != 0) {
      return nextBits(64);
    }
    consumed += 64;
    return nextWord();
  }

  /** The block buffer itself, for tests of erasure after use. */
  final byte[] bufferForTest() {
    return block;
  }

  @Override
  public final long bitsConsumed() {
    return consumed;
  }
}
