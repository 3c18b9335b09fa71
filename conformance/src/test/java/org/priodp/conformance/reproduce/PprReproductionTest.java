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

class PprReproductionTest {
  @Test
  void headlineReductionsAndFiles(@TempDir Path dir) throws Exception {
    PprReproduction.Settings s = PprReproduction.Settings.paper();
    PprReproduction.Headline h1 = PprReproduction.headline(s, 1, 50);
    PprReproduction.Headline h2 = PprReproduction.headline(s, 0.5, 25);
    System.out.printf("headline eps=1, 50 bits: %.1f%%; eps=0.5, 25 bits: %.1f%%%n", 100 * h1.reduction(), 100 * h2.reduction());
    // the paper reports about a third at epsilon = 1 and 50 bits
    assertTrue(h1.reduction() > 0.25 && h1.reduction() < 0.40, "reduction " + h1.reduction());
    assertTrue(h2.reduction() > 0.1, "reduction " + h2.reduction());
    // a small run: n = 40, d = 100, simulated at one epsilon
    PprReproduction.Settings small = new PprReproduction.Settings(40, 100, 1e-6, 2, PprReproduction.grid(0.1, 4, 4),
        new int[] {25, 100}, 10, new double[] {0.5}, 3, 1_000_000);
    StringWriter progress = new StringWriter();
    List<Path> files = PprReproduction.run(dir, new PrintWriter(progress), small, "beef");
    for (Path f : files) {
      assertTrue(Files.size(f) > 0, f.toString());
    }
    List<String> sim = Files.readAllLines(files.get(1));
    assertEquals(2, sim.size());
    String[] cols = sim.get(1).split(",");
    double mse = Double.parseDouble(cols[2]);
    double expected = Double.parseDouble(cols[3]);
    // 3 trials x 100 coordinates: relative standard error sqrt(2/300) ~ 0.08
    assertEquals(expected, mse, 5 * expected * Math.sqrt(2.0 / 300), progress.toString());
    assertEquals("0", cols[6]);
    assertTrue(progress.toString().contains("headline: epsilon 1.0, 50 bits"));
  }
}
