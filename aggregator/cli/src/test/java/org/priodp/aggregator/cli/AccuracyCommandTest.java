package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.priodp.noise.Rational;
import org.priodp.noise.local.RandomizedResponse;

class AccuracyCommandTest {

  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    picocli.CommandLine cl = PrioDp.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    return new Run(cl.execute(args), out.toString(), err.toString());
  }


  @Test
  void randomizedResponsePrintsTheLectureBound() {
    Run r = run("accuracy", "--mechanism", "rr", "--epsilon", "1", "--n", "10000", "--delta", "0.05");
    assertEquals(0, r.code(), r.err());
    double bound = RandomizedResponse.ofEpsilon(Rational.ONE).estimator().meanHalfWidth(10000, 0.05);
    assertTrue(r.out().contains(String.format("|error| <= %.5f", bound)), r.out());
    assertTrue(r.out().contains("standard deviation <= 95.95"), r.out());
  }

  @Test
  void everyMechanismPrintsOneReportAndTheAggregate() {
    String[][] cases = {
      {"--mechanism", "krr", "--epsilon", "2", "--k", "10"},
      {"--mechanism", "rappor", "--epsilon", "2", "--k", "16", "--max-weight", "6"},
      {"--mechanism", "laplace", "--epsilon", "1/2", "--sensitivity", "0.3", "--k", "3"},
      {"--mechanism", "discrete-laplace", "--epsilon", "1", "--sensitivity", "2"},
    };
    for (String[] c : cases) {
      String[] args = new String[c.length + 1];
      args[0] = "accuracy";
      System.arraycopy(c, 0, args, 1, c.length);
      Run r = run(args);
      assertEquals(0, r.code(), String.join(" ", c) + ": " + r.err());
      assertTrue(r.out().contains("aggregate of N = 1000"), r.out());
    }
    Run lap = run("accuracy", "--mechanism", "laplace", "--epsilon", "1", "--delta", "0.01");
    assertTrue(lap.out().contains(String.format("max |error| <= %.6g", Math.log(100.0))), lap.out());
  }

  /** A scale of 4e19 (past 2^61) used to overflow the half-width search; now it prints the figure. */
  @Test
  void hugeDiscreteLaplaceScalePrintsItsHalfWidth() {
    CliRun r = CliRun.of("accuracy", "--mechanism", "discrete-laplace", "--epsilon", "1/10000000000000000000",
        "--sensitivity", "4");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("|noise| <= 119829290942159607524 per coordinate"), r.out());
  }

  @Test
  void badInputFailsWithOneClearLine() {
    String[][] cases = {
      {"--mechanism", "rr", "--epsilon", "0"},
      {"--mechanism", "rr", "--epsilon", "NaN"},
      {"--mechanism", "gauss", "--epsilon", "1"},
      {"--mechanism", "krr", "--epsilon", "1", "--k", "1"},
      {"--mechanism", "rappor", "--epsilon", "1", "--k", "4", "--max-weight", "5"},
      {"--mechanism", "discrete-laplace", "--epsilon", "1", "--sensitivity", "1/2"},
      {"--mechanism", "rr", "--epsilon", "1", "--n", "0"},
      {"--mechanism", "rr", "--epsilon", "1", "--delta", "1"},
    };
    for (String[] c : cases) {
      String[] args = new String[c.length + 1];
      args[0] = "accuracy";
      System.arraycopy(c, 0, args, 1, c.length);
      Run r = run(args);
      assertEquals(2, r.code(), String.join(" ", c));
      assertEquals(1, r.err().lines().count(), String.join(" ", c) + ": " + r.err());
    }
  }
}
