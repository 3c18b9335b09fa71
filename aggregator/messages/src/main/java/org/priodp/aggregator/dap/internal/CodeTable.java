package org.priodp.aggregator.dap.internal;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import org.priodp.aggregator.dap.DapDecodeException;

/**
 * The code points of a closed DAP-18 set, such as {@code enum { reserved(0), time_interval(1),
 * leader_selected(2), (255) } BatchMode}: the one lookup from a decoded code to its enum constant,
 * shared by every code enum. A code that names no constant is a decode error naming the field;
 * codes the spec marks {@code reserved} are reported as such.
 *
 * @param <E> the enum whose constants carry the code points
 */
public final class CodeTable<E extends Enum<E>> {
  private final Map<Integer, E> byCode;
  private final String typeName;
  private final Set<Integer> reserved;

  private CodeTable(Map<Integer, E> byCode, String typeName, Set<Integer> reserved) {
    this.byCode = byCode;
    this.typeName = typeName;
    this.reserved = reserved;
  }

  /**
   * Returns the table of {@code values} (an enum's {@code values()}) under their codes; the spec's
   * {@code reserved} code points, if any, are named in decode errors.
   *
   * @throws IllegalStateException if two constants share a code
   */
  public static <E extends Enum<E>> CodeTable<E> of(E[] values, ToIntFunction<? super E> code,
      String typeName, int... reserved) {
    Map<Integer, E> byCode = new HashMap<>();
    for (E e : values) {
      E previous = byCode.put(code.applyAsInt(e), e);
      if (previous != null) {
        throw new IllegalStateException(typeName + ": " + previous + " and " + e + " share code "
            + code.applyAsInt(e));
      }
    }
    return new CodeTable<>(Map.copyOf(byCode), typeName,
        Arrays.stream(reserved).boxed().collect(Collectors.toUnmodifiableSet()));
  }

  /**
   * Returns the constant with this code point.
   *
   * @throws DapDecodeException ({@code invalidMessage}) naming {@code field} for a reserved or
   *     unknown code
   */
  public E fromCode(int code, String field) {
    E e = byCode.get(code);
    if (e == null) {
      throw new DapDecodeException(field,
          (reserved.contains(code) ? "reserved " : "unknown ") + typeName + " " + code);
    }
    return e;
  }

  /**
   * Returns the spec's name of a constant: its Java name in lower case, e.g. {@code
   * time_interval} for {@code TIME_INTERVAL} (DAP-18 writes code points in snake case).
   */
  public static String specName(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT);
  }
}
