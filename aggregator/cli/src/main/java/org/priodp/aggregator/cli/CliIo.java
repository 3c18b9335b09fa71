package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;

/** Hex, input and all-or-nothing output for the commands. */
final class CliIo {
  private CliIo() {}

  /**
   * A command failed for a reason outside the user's input (a database that does not answer, a
   * port in use): reported as one line with the root cause, exit status 1.
   */
  static final class Failure extends RuntimeException {
    Failure(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Parses hex (whitespace ignored, either case), naming {@code what} in errors.
   *
   * @throws IllegalArgumentException on an odd number of digits or a non-hex character
   */
  static byte[] hex(String what, String text) {
    String s = text.replaceAll("\\s+", "");
    if (s.isEmpty()) {
      throw new IllegalArgumentException(what + " is empty: expected hex digits");
    }
    if (s.length() % 2 != 0) {
      throw new IllegalArgumentException(what + " has an odd number of hex digits (" + s.length() + ")");
    }
    for (int i = 0; i < s.length(); i++) {
      if (Character.digit(s.charAt(i), 16) < 0) {
        throw new IllegalArgumentException(what + " has a non-hex character '" + s.charAt(i) + "' at digit " + i);
      }
    }
    return HexFormat.of().parseHex(s);
  }

  /** Returns lower-case hex. */
  static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  /** Reads all text from a file, or from {@code stdin} when the path is null. */
  static String readText(Path in, InputStream stdin) throws IOException {
    if (in == null) {
      return new String(stdin.readAllBytes(), StandardCharsets.US_ASCII);
    }
    if (!Files.isRegularFile(in)) {
      throw new IOException("cannot read --in " + in + ": no such file");
    }
    return Files.readString(in, StandardCharsets.US_ASCII);
  }

  /**
   * Writes the text to {@code out} all at once: into a temporary file in the same directory,
   * then moved over {@code out}. On failure {@code out} is left as it was.
   */
  static void writeAtomically(Path out, String text) throws IOException {
    Path abs = out.toAbsolutePath();
    Path dir = abs.getParent();
    Path tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.US_ASCII);
      try {
        Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
