package org.priodp.conformance.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DqlReproductionTest {

  @Test
  void writesThePlotTheCsvAndTheTheorem8Table(@TempDir Path dir) throws Exception {
    StringWriter progress = new StringWriter();
    List<Path> files = DqlReproduction.run(dir, new PrintWriter(progress),
        new DqlReproduction.Settings(4000, new double[] {1, 4, 11}, 200, 2000));
    assertEquals(3, files.size());
    for (Path f : files) {
      assertTrue(Files.size(f) > 100, f.toString());
    }
    byte[] png = Files.readAllBytes(files.get(0));
    assertEquals((byte) 0x89, png[0]);
    assertEquals('P', png[1]);
    List<String> rows = Files.readAllLines(files.get(1));
    assertEquals(4, rows.size());
    double previousEll = 1;
    for (String row : rows.subList(1, rows.size())) {
      String[] c = row.split(",");
      double eps = Double.parseDouble(c[0]);
      double ell = Double.parseDouble(c[1]);
      double bits = Double.parseDouble(c[3]);
      double mse = Double.parseDouble(c[4]);
      double baselineBits = Double.parseDouble(c[7]);
      double baselineMse = Double.parseDouble(c[8]);
      if (eps == 11) {
        // no ell reaches 5 bits at epsilon 11 (the mean length levels off near 5.2 bits)
        assertTrue(Double.isNaN(ell) && bits > 5 && baselineBits <= 5, row);
        continue;
      }
      assertTrue(bits <= 5 && baselineBits <= 5, row);
      assertTrue(ell >= previousEll, "a larger epsilon needs a coarser quantizer: " + row);
      previousEll = ell;
      // DQL's error is exactly Laplace(1/eps): MSE 2/eps^2; the baseline adds quantization error
      assertEquals(2 / (eps * eps), mse, 0.15 * 2 / (eps * eps), row);
      // Laplace then quantize: about 2/eps^2 + step^2/12 (quantization error nearly uniform)
      double step = Double.parseDouble(c[6]);
      assertEquals(2 / (eps * eps) + step * step / 12, baselineMse, 0.15 * 2 / (eps * eps), row);
    }
    // every Theorem 8 row: measured <= bound
    for (String row : Files.readAllLines(files.get(2)).subList(1, 19)) {
      String[] c = row.split(",");
      assertTrue(Double.parseDouble(c[3]) <= Double.parseDouble(c[4]), row);
    }
    assertTrue(progress.toString().contains("[3/3]"), progress.toString());
  }
}
