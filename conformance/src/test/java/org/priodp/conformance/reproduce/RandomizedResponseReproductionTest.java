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
import org.priodp.aggregator.cli.PrioDp;

/**
 * The randomized-response reproduction: the simulated 95% quantile of the error never exceeds
 * the lecture's Theorem 5 bound and falls like 1/sqrt(n), and the command writes a CSV and a
 * PNG into the folder it names.
 */
class RandomizedResponseReproductionTest {

  @Test
  void simulatedErrorStaysBelowTheLectureBoundAndShrinksWithN() {
    List<RandomizedResponseReproduction.Row> rows = RandomizedResponseReproduction.simulate("5252");
    assertEquals(RandomizedResponseReproduction.EPSILONS.size() * RandomizedResponseReproduction.NS.length, rows.size());
    for (RandomizedResponseReproduction.Row r : rows) {
      assertTrue(r.quantile() <= r.bound(), r.toString());
      // rmse is near the stated standard-deviation bound (at most 25% above it)
      assertTrue(r.rmse() < 1.25 * r.sdBound() && r.rmse() > 0.6 * r.sdBound(), r.toString());
    }
    // 100x more reports: about 10x smaller error
    double ratio = rows.get(0).rmse() / rows.get(RandomizedResponseReproduction.NS.length - 1).rmse();
    assertTrue(ratio > 7 && ratio < 14, "rmse ratio n=100 vs 10000: " + ratio);
  }

  @Test
  void commandWritesCsvAndPng(@TempDir Path dir) throws Exception {
    picocli.CommandLine cl = PrioDp.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    Path target = dir.resolve("rr");
    assertEquals(0, cl.execute("reproduce", "randomized-response", "--out", target.toString()), err.toString());
    List<String> csv = Files.readAllLines(target.resolve("randomized-response.csv"));
    assertEquals(16, csv.size());
    assertTrue(csv.get(0).startsWith("epsilon,n,trials,rmse"));
    byte[] png = Files.readAllBytes(target.resolve("randomized-response.png"));
    assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G');
    assertTrue(out.toString().contains("wrote " + target.resolve("randomized-response.png").toAbsolutePath()), out.toString());
    assertEquals(2, cl.execute("reproduce", "figure-9"));
  }
}
