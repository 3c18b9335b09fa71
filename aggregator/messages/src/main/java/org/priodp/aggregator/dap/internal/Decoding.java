package org.priodp.aggregator.dap.internal;

import java.util.function.Function;
import java.util.function.Supplier;
import org.priodp.aggregator.dap.DapDecodeException;

/** Glue that turns DAP-18 decoding into all-or-nothing calls that only throw {@link DapDecodeException}. */
public final class Decoding {
  private Decoding() {
  }

  /** Decodes a whole message with the given reader function and rejects trailing bytes. */
  public static <T> T decodeAll(byte[] bytes, String what, Function<DapReader, T> read) {
    DapReader r = DapReader.of(bytes, what);
    T value = read.apply(r);
    r.finish(what);
    return value;
  }

  /** Runs a validating constructor, reporting its IllegalArgumentException as a decode error. */
  public static <T> T build(String field, Supplier<T> constructor) {
    try {
      return constructor.get();
    } catch (DapDecodeException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new DapDecodeException(field, e.getMessage());
    }
  }
}
