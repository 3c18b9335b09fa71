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

class RequantizationReproductionTest {

  @Test
  void writesFiguresWhoseCurvesBehaveAsInThePaper(@TempDir Path dir) throws Exception {
    long seed = 0x5252;
    System.out.println("seed " + seed);
    StringWriter progress = new StringWriter();
    List<Path> files = RequantizationReproduction.run(dir, new PrintWriter(progress), seed,
        new RequantizationReproduction.Settings(new double[] {2, 3, 6, 9}, new double[] {1, 3}, 60, 40, 6));
    assertEquals(10, files.size());
    for (Path f : files) {
      assertTrue(Files.size(f) > 100, f.toString());
      if (f.toString().endsWith(".png")) {
        assertEquals((byte) 0x89, Files.readAllBytes(f)[0]);
      }
    }
    // Fig. 1: per ratio, epsilon does not increase with delta; rho 0.25 is infeasible at delta <= 4.34.
    List<String> fig1 = Files.readAllLines(dir.resolve("requantization-fig1.csv"));
    double prevEps = Double.POSITIVE_INFINITY;
    String prevRatio = "";
    int quarter = 0;
    for (String row : fig1.subList(1, fig1.size())) {
      String[] c = row.split(",");
      if (!c[0].equals(prevRatio)) {
        prevEps = Double.POSITIVE_INFINITY;
        prevRatio = c[0];
      }
      double eps = Double.parseDouble(c[4]);
      assertTrue(eps <= prevEps + 1e-6, row);
      assertTrue(Double.parseDouble(c[6]) <= Double.parseDouble(c[2]) * (1 + 1e-9), row);
      prevEps = eps;
      quarter += c[0].equals("0.25") ? 1 : 0;
    }
    assertEquals(2, quarter);
    // Fig. 2a-d: requantization beats Laplace-then-quantize at every point.
    List<String> fig2 = Files.readAllLines(dir.resolve("requantization-fig2a-d.csv"));
    for (String row : fig2.subList(1, fig2.size())) {
      String[] c = row.split(",");
      assertTrue(Double.parseDouble(c[3]) < Double.parseDouble(c[4]), row);
    }
    // Fig. 2e: the sum's error grows with N, slower for requantization.
    List<String> ef = Files.readAllLines(dir.resolve("requantization-fig2e-f.csv"));
    String[] first = ef.get(1).split(",");
    String[] last = ef.get(ef.size() - 1).split(",");
    assertTrue(Double.parseDouble(last[1]) > Double.parseDouble(first[1]));
    assertTrue(Double.parseDouble(last[2]) - Double.parseDouble(first[2]) > Double.parseDouble(last[1]) - Double.parseDouble(first[1]));
  }
}
