package org.priodp.aggregator.dap;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The codec of one kind of DAP-18 extension list, {@code Extension extensions<0..2^16-1>} of
 * {@code struct { uint16 extension_type; opaque extension_data<0..2^16-1>; }}: report extensions
 * ("Report Extensions"), task extensions ("Task Extensions"), aggregation job extensions
 * ("Aggregation Job Extensions") and collection job extensions ("Collection Job Extensions") share
 * this wire form and differ only in their entry type and in what an out-of-order list is: DAP-18
 * wants strictly increasing types, refused as {@code invalidExtension} for task and collection
 * job extensions, as {@code invalidMessage} for aggregation job extensions ("Helper
 * Initialization"), and checked per report for report extensions (see
 * {@link ReportExtension#validate}), whose lists decode in any order.
 *
 * @param <T> the extension record of this list
 */
final class Extensions<T extends Extensions.Entry> {
  /** The largest encoded list, {@code <0..2^16-1>}. */
  static final int MAX_LIST_BYTES = 0xffff;

  /** What every extension record is: a uint16 type and its opaque data. */
  interface Entry {
    /** Returns the uint16 extension type. */
    int extensionType();

    /** Returns the extension data. */
    ByteString extensionData();
  }

  private final BiFunction<Integer, ByteString, T> entry;
  private final DapError orderError;

  private Extensions(BiFunction<Integer, ByteString, T> entry, DapError orderError) {
    this.entry = entry;
    this.orderError = orderError;
  }

  /** Returns the codec of a list whose types must be strictly increasing, else {@code orderError}. */
  static <T extends Entry> Extensions<T> ordered(BiFunction<Integer, ByteString, T> entry,
      DapError orderError) {
    return new Extensions<>(entry, orderError);
  }

  /** Returns the codec of a list kept in wire order, whose order is checked elsewhere. */
  static <T extends Entry> Extensions<T> unordered(BiFunction<Integer, ByteString, T> entry) {
    return new Extensions<>(entry, null);
  }

  /** Validates one entry's uint16 type and data length; the extension records' shared check. */
  static void checkEntry(int type, ByteString data) {
    if (type < 0 || type > 0xffff) {
      throw new IllegalArgumentException("extension_type out of uint16 range: " + type);
    }
    Octets.checkVector(data, 0, 0xffff, "extension_data");
  }

  /** Returns true if each type is greater than the one before it. */
  static boolean isStrictlyIncreasing(List<? extends Entry> list) {
    return firstOutOfOrder(list) < 0;
  }

  /** Returns the index of the first entry whose type does not exceed the one before it, or -1. */
  private static int firstOutOfOrder(List<? extends Entry> list) {
    for (int i = 1; i < list.size(); i++) {
      if (list.get(i).extensionType() <= list.get(i - 1).extensionType()) {
        return i;
      }
    }
    return -1;
  }

  private static String outOfOrder(int previous, int type) {
    return "extension types not strictly increasing (" + previous + " then " + type + ")";
  }

  /**
   * Returns an immutable copy of the list after checking its encoded size and, for an ordered
   * kind, its order ({@link DapDecodeException} of the kind's error type naming {@code field}).
   */
  List<T> checkList(List<T> list, String field) {
    if (list == null) {
      throw new NullPointerException(field + " is null");
    }
    List<T> copy = List.copyOf(list);
    int bad = orderError == null ? -1 : firstOutOfOrder(copy);
    if (bad > 0) {
      throw new DapDecodeException(orderError, field,
          outOfOrder(copy.get(bad - 1).extensionType(), copy.get(bad).extensionType()));
    }
    long size = 0;
    for (T e : copy) {
      size += 4 + e.extensionData().length();
    }
    if (size > MAX_LIST_BYTES) {
      throw new IllegalArgumentException(field + ": encoded list of " + size + " bytes exceeds 65535");
    }
    return copy;
  }

  /**
   * Reads a list; an entry its record refuses is reported at {@code field[i].extension_data}, an
   * out-of-order type (for an ordered kind) at {@code field[i].extension_type}.
   */
  List<T> read(DapReader r, String field) {
    DapReader list = r.subVector(2, 0, MAX_LIST_BYTES, field);
    List<T> out = new ArrayList<>();
    int previous = -1;
    while (list.remaining() > 0) {
      String f = field + "[" + out.size() + "]";
      int type = list.u16(f + ".extension_type");
      ByteString data = list.opaque(2, 0, 0xffff, f + ".extension_data");
      if (orderError != null && type <= previous) {
        throw new DapDecodeException(orderError, f + ".extension_type", outOfOrder(previous, type));
      }
      previous = type;
      out.add(Decoding.build(f + ".extension_data", () -> entry.apply(type, data)));
    }
    return out;
  }

  /** Writes a list. */
  void write(DapWriter w, List<T> list) {
    DapWriter inner = new DapWriter();
    for (T e : list) {
      inner.u16(e.extensionType()).vector(2, 0, 0xffff, e.extensionData());
    }
    w.vector(2, 0, MAX_LIST_BYTES, inner.toByteArray());
  }
}
