package org.priodp.vdaf.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.opentest4j.AssertionFailedError;

/**
 * Locates the shared test data: {@code <priodp.root>/../shared/<relative>}, where the system
 * property {@code priodp.root} (set by surefire) is the repository root.
 */
public final class SharedFiles {
  private SharedFiles() {}

  /**
   * Returns the path of a shared file.
   *
   * @throws AssertionFailedError if {@code priodp.root} is unset or the file is missing; the
   *     message names the path
   */
  public static Path path(String relative) {
    String root = System.getProperty("priodp.root");
    if (root == null || root.isEmpty()) {
      throw new AssertionFailedError(
          "system property priodp.root is not set; cannot locate ../shared/" + relative);
    }
    Path p = Path.of(root).resolve("..").resolve("shared").resolve(relative).normalize();
    if (!Files.isRegularFile(p)) {
      throw new AssertionFailedError("shared test file is missing: " + p);
    }
    return p;
  }

  /** Returns the UTF-8 text of a shared file (see {@link #path}). */
  public static String read(String relative) {
    Path p = path(relative);
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + p, e);
    }
  }
}
