package org.priodp.conformance.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compiles and runs the Java example of the README's "Use as a library" section against the
 * library modules, so the example cannot rot: it must compile, run, and print four estimates
 * within the printed half-width of the true counts 40, 30, 20, 10.
 */
class ReadmeExampleTest {
  private static final Pattern BLOCK = Pattern.compile("## Use as a library.*?```java\\n(.*?)```",
      Pattern.DOTALL);

  @TempDir
  Path dir;

  @Test
  void theLibraryExampleCompilesRunsAndPrintsIntervalsAroundTheTruth() throws Exception {
    Path root = Path.of(System.getProperty("priodp.root", ".."));
    Path readme = root.resolve("README.md");
    assertTrue(Files.exists(readme), "README.md not found at " + readme.toAbsolutePath());
    Matcher m = BLOCK.matcher(Files.readString(readme));
    assertTrue(m.find(), "README.md has no java block under \"## Use as a library\"");
    Path source = dir.resolve("HistogramExample.java");
    Files.writeString(source, m.group(1));

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int rc = javac.run(null, null, diagnostics, "-d", dir.toString(), "-cp",
        System.getProperty("java.class.path"), source.toString());
    assertEquals(0, rc, "the README example does not compile:\n" + diagnostics);

    PrintStream stdout = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
        getClass().getClassLoader())) {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      loader.loadClass("HistogramExample").getMethod("main", String[].class)
          .invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(stdout);
    }
    String printed = out.toString(StandardCharsets.UTF_8).strip();
    Matcher r = Pattern.compile("\\[(.*)] \\+- (\\d+)").matcher(printed);
    assertTrue(r.matches(), "unexpected output: " + printed);
    List<BigInteger> estimates = java.util.Arrays.stream(r.group(1).split(", "))
        .map(BigInteger::new).toList();
    BigInteger halfWidth = new BigInteger(r.group(2));
    List<Long> truth = List.of(40L, 30L, 20L, 10L);
    assertEquals(4, estimates.size(), printed);
    for (int i = 0; i < 4; i++) {
      // the 95% interval may miss by chance; 50 half-widths never does for two Laplace draws
      BigInteger error = estimates.get(i).subtract(BigInteger.valueOf(truth.get(i))).abs();
      assertTrue(error.compareTo(halfWidth.multiply(BigInteger.valueOf(50))) <= 0,
          "bucket " + i + ": " + printed);
    }
  }
}
