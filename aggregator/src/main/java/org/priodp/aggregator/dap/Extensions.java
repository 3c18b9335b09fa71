package org.priodp.aggregator.dap;

import java.util.ArrayList;
import java.util.List;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;

/**
 * Shared rules for DAP-18 extension lists ({@code TaskExtension extensions<0..2^16-1>} in "Task
 * Extensions", {@code CollectionJobExtension extensions<0..2^16-1>} in "Collection Job
 * Extensions"): each entry is {@code uint16 extension_type; opaque extension_data<0..2^16-1>},
 * and types must be strictly increasing (otherwise {@code invalidExtension}).
 */
final class Extensions {
  static final int MAX_LIST_BYTES = 0xffff;

  private Extensions() {
  }

  /** One decoded entry. */
  record Entry(int type, byte[] data) {
  }

  static void checkType(int type) {
    if (type < 0 || type > 0xffff) {
      throw new IllegalArgumentException("extension_type out of uint16 range: " + type);
    }
  }

  /** Checks strict order and the list's encoded size; returns an immutable copy of the list. */
  static <T> List<T> checkList(List<T> list, java.util.function.ToIntFunction<T> type,
      java.util.function.ToIntFunction<T> dataLength, String field) {
    if (list == null) {
      throw new NullPointerException(field + " is null");
    }
    List<T> copy = List.copyOf(list);
    long size = 0;
    int previous = -1;
    for (T e : copy) {
      int t = type.applyAsInt(e);
      if (t <= previous) {
        throw new DapDecodeException(DapError.INVALID_EXTENSION, field,
            "extension types not strictly increasing (" + previous + " then " + t + ")");
      }
      previous = t;
      size += 4 + dataLength.applyAsInt(e);
    }
    if (size > MAX_LIST_BYTES) {
      throw new IllegalArgumentException(field + ": encoded list of " + size + " bytes exceeds 65535");
    }
    return copy;
  }

  static List<Entry> read(DapReader r, String field) {
    DapReader list = r.subVector(2, 0, MAX_LIST_BYTES, field);
    List<Entry> out = new ArrayList<>();
    while (list.remaining() > 0) {
      String f = field + "[" + out.size() + "]";
      int type = list.u16(f + ".extension_type");
      byte[] data = list.vector(2, 0, 0xffff, f + ".extension_data");
      out.add(new Entry(type, data));
    }
    return out;
  }

  static void write(DapWriter w, List<Entry> entries) {
    DapWriter inner = new DapWriter();
    for (Entry e : entries) {
      inner.u16(e.type()).vector(2, 0, 0xffff, e.data());
    }
    w.vector(2, 0, MAX_LIST_BYTES, inner.toByteArray());
  }
}
