package org.priodp.aggregator.server;

import java.util.Arrays;
import java.util.Random;

/** Seeded byte-level mutations of a message: flips, replacements, truncation, insertion, splices. */
final class Mutator {
  private Mutator() {
  }

  static byte[] mutate(byte[] base, Random rnd) {
    byte[] b = base.clone();
    int rounds = 1 + rnd.nextInt(3);
    for (int r = 0; r < rounds; r++) {
      switch (rnd.nextInt(7)) {
        case 0 -> {
          if (b.length > 0) {
            int i = rnd.nextInt(b.length);
            b[i] ^= (byte) (1 << rnd.nextInt(8));
          }
        }
        case 1 -> {
          if (b.length > 0) {
            b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
          }
        }
        case 2 -> b = Arrays.copyOf(b, rnd.nextInt(b.length + 1));
        case 3 -> {
          int at = rnd.nextInt(b.length + 1);
          byte[] ins = new byte[1 + rnd.nextInt(8)];
          rnd.nextBytes(ins);
          byte[] out = new byte[b.length + ins.length];
          System.arraycopy(b, 0, out, 0, at);
          System.arraycopy(ins, 0, out, at, ins.length);
          System.arraycopy(b, at, out, at + ins.length, b.length - at);
          b = out;
        }
        case 4 -> {
          if (b.length > 1) {
            int from = rnd.nextInt(b.length);
            int to = from + 1 + rnd.nextInt(Math.min(8, b.length - from));
            byte[] out = new byte[b.length - (to - from)];
            System.arraycopy(b, 0, out, 0, from);
            System.arraycopy(b, to, out, from, b.length - to);
            b = out;
          }
        }
        case 5 -> {
          // an interesting value in a length prefix or integer: 0x00, 0xff, 0x7f, 0x80
          if (b.length > 0) {
            byte[] v = {0, (byte) 0xff, 0x7f, (byte) 0x80, 1};
            b[rnd.nextInt(b.length)] = v[rnd.nextInt(v.length)];
          }
        }
        default -> {
          byte[] tail = new byte[rnd.nextInt(16)];
          rnd.nextBytes(tail);
          byte[] out = Arrays.copyOf(b, b.length + tail.length);
          System.arraycopy(tail, 0, out, b.length, tail.length);
          b = out;
        }
      }
    }
    return b;
  }
}
