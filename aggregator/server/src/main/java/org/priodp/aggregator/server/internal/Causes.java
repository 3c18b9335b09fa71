package org.priodp.aggregator.server.internal;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Describes an exception by its cause chain for one-line error messages and log lines: the
 * outermost message says what was being done, the root cause says why it failed.
 */
public final class Causes {
  private Causes() {}

  /** Returns the deepest cause of {@code t} (t itself when it has none); safe against cycles. */
  public static Throwable root(Throwable t) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    Throwable r = t;
    while (r.getCause() != null && seen.add(r)) {
      r = r.getCause();
    }
    return r;
  }

  /** Returns the first exception of the given type in the cause chain of {@code t}, or null. */
  public static <T extends Throwable> T find(Throwable t, Class<T> type) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
      if (type.isInstance(c)) {
        return type.cast(c);
      }
    }
    return null;
  }

  /** Returns the message on one line, or the simple class name when there is no message. */
  public static String message(Throwable t) {
    if (t instanceof java.nio.file.NoSuchFileException f && f.getReason() == null) {
      return f.getFile() + ": no such file";
    }
    if (t instanceof java.nio.file.AccessDeniedException f && f.getReason() == null) {
      return f.getFile() + ": permission denied";
    }
    String m = t.getMessage();
    if (m == null || m.isBlank()) {
      return t.getClass().getSimpleName();
    }
    return oneLine(m);
  }

  /**
   * Returns "outer message: root message" on one line, or just the outer message when the root
   * cause is the exception itself or the outer message already contains the root's.
   */
  public static String describe(Throwable t) {
    String outer = message(t);
    Throwable r = root(t);
    if (r == t) {
      return outer;
    }
    String because = message(r);
    return outer.contains(because) ? outer : outer + ": " + because;
  }

  /** Returns "Class: message" of the exception and, when different, of its root cause. */
  public static String forLog(Throwable t) {
    String s = t.getClass().getName() + ": " + message(t);
    Throwable r = root(t);
    return r == t ? s : s + "; root cause " + r.getClass().getName() + ": " + message(r);
  }

  /** Collapses line breaks and the indentation after them into single spaces. */
  public static String oneLine(String s) {
    return s.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
