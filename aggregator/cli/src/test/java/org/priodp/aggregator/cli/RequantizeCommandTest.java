package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequantizeCommandTest {

  private static double field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\": ([-0-9.Ee]+)").matcher(json);
    assertTrue(m.find(), name + " missing in " + json);
    return Double.parseDouble(m.group(1));
  }

  @Test
  void designPrintsEpsilonsDistortionAndTheExactChannel(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("channel.json");
    CliRun r = CliRun.of("requantize", "design", "--bits-in", "4", "--bits-out", "2", "--distortion", "3", "--family",
        "gaussian", "--mu", "8:12", "--sigma", "1:3", "--grid-step", "0.5", "--out", file.toString());
    assertEquals(0, r.code(), r.err());
    String json = r.out();
    double target = field(json, "targetEpsilon");
    double exact = field(json, "epsilon");
    assertTrue(exact >= target - 1e-9 && exact - target < 1e-6, target + " vs " + exact);
    assertTrue(field(json, "worstCaseDistortion") <= 3 * (1 + 1e-9));
    assertEquals(45, (int) field(json, "members")); // 9 means x 5 deviations
    assertTrue(json.contains("\"expEpsilon\": \""), json);
    Matcher rows = Pattern.compile("\\[(\\d+), (\\d+), (\\d+), (\\d+)\\]").matcher(json);
    long den = (long) field(json, "denominator");
    int count = 0;
    while (rows.find()) {
      long s = 0;
      for (int g = 1; g <= 4; g++) {
        s += Long.parseLong(rows.group(g));
      }
      assertEquals(den, s, "each row sums to the denominator");
      count++;
    }
    assertEquals(16, count);
    assertEquals(json.strip(), Files.readString(file).strip());
  }

  @Test
  void infeasibleAndMalformedInputFailWithOneLine() {
    assertTrue(CliRun.of("requantize", "design", "--bits-in", "4", "--bits-out", "2", "--distortion", "1", "--mu", "8:12",
        "--sigma", "1:3").failedWithOneLine("smallest achievable worst-case distortion is 1.48"));
    assertTrue(CliRun.of("requantize", "design", "--bits-in", "4", "--bits-out", "5", "--distortion", "1", "--mu", "8:12",
        "--sigma", "1:3").failedWithOneLine("--bits-out"));
    assertTrue(CliRun.of("requantize", "design", "--bits-in", "4", "--bits-out", "2", "--distortion", "-1", "--mu", "8:12",
        "--sigma", "1:3").failedWithOneLine("--distortion"));
    assertTrue(CliRun.of("requantize", "design", "--bits-in", "4", "--bits-out", "2", "--distortion", "x", "--mu", "8:12",
        "--sigma", "1:3").failedWithOneLine("--distortion"));
    assertTrue(CliRun.of("requantize", "design", "--bits-in", "4", "--bits-out", "2", "--distortion", "3", "--mu", "12:8",
        "--sigma", "1:3").failedWithOneLine("--mu"));
    assertTrue(CliRun.of("requantize", "design", "--bits-in", "4", "--bits-out", "2", "--distortion", "3", "--mu", "8:12",
        "--sigma", "0:3").failedWithOneLine("--sigma"));
    assertTrue(CliRun.of("requantize", "design", "--bits-in", "4", "--bits-out", "2", "--distortion", "3", "--mu", "8:12",
        "--sigma", "1:3", "--family", "uniform").failedWithOneLine("--family"));
    assertTrue(CliRun.of("requantize", "design", "--bits-in", "9", "--bits-out", "2", "--distortion", "3", "--mu", "8:12",
        "--sigma", "1:3").failedWithOneLine("--bits-in"));
    CliRun none = CliRun.of("requantize");
    assertTrue(none.code() != 0 && none.err().contains("Missing required subcommand"), none.err());
  }
}
