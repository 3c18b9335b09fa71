package org.priodp.conformance.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.priodp.conformance.internal.Json;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpUnsharder;
import org.priodp.vdaf.dp.UnshardResult;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.Prio3DpMechanism;

/**
 * The collector on every official Prio3 vector with an aggregate result (all of
 * ../shared/vectors/vdaf-18 and ../shared/vectors/l1-bound-sum, or the folder named by the
 * system property {@code priodp.vdafVectors}): the vector's agg_shares, decoded with the
 * vector's parameters and unsharded, give agg_result exactly, both without DP and through the DP
 * lift to the valid range.
 */
class CollectorVectorTest {
  private static final HexFormat HEX = HexFormat.of();

  static Stream<Path> vectorFiles() throws IOException {
    String override = System.getProperty("priodp.vdafVectors");
    List<Path> dirs;
    if (override != null && !override.isEmpty()) {
      dirs = List.of(Path.of(override));
      if (!Files.isDirectory(dirs.get(0))) {
        fail("test vector folder is missing: " + dirs.get(0));
      }
    } else {
      dirs = List.of(VdafVectorRunnerTest.vectorDir("vdaf-18"), VdafVectorRunnerTest.vectorDir("l1-bound-sum"));
    }
    List<Path> files = VdafVectorRunner.collect(dirs);
    assertTrue(files.size() >= 10, "expected the Prio3 vectors in " + dirs + ", found " + files.size());
    return files.stream();
  }

  @ParameterizedTest
  @MethodSource("vectorFiles")
  @SuppressWarnings("unchecked")
  void officialVectorsUnshardToAggResult(Path file) throws IOException {
    String name = file.getFileName().toString();
    Map<String, Object> v = (Map<String, Object>) Json.parse(Files.readString(file));
    Prio3 prio3 = VdafVectorRunner.instantiate(name, v);
    if (name.startsWith("Prio3HigherDegree") || !v.containsKey("agg_result")) {
      System.out.println(name + ": no Prio3Variant (test-only circuit) or no agg_result; not a collector case");
      return;
    }
    Prio3Variant variant = prio3.variant();
    List<byte[]> shares = new ArrayList<>();
    for (Object s : (List<Object>) v.get("agg_shares")) {
      shares.add(HEX.parseHex((String) s));
    }
    if (shares.isEmpty()) {
      System.out.println(name + ": negative vector without aggregate shares; not a collector case");
      return;
    }
    List<BigInteger> expected = new ArrayList<>();
    Object r = v.get("agg_result");
    if (r instanceof List<?> list) {
      list.forEach(x -> expected.add((BigInteger) x));
    } else {
      expected.add((BigInteger) r);
    }
    long reports = ((List<Object>) v.get("reports")).size();

    UnshardResult exact = DpUnsharder.of(Prio3DpMechanism.of(variant, new DpStrategy.NoDifferentialPrivacy()))
        .unshard(shares, reports);
    assertEquals(expected, exact.fieldValues(), name);
    assertEquals(expected, exact.estimates(), name);
    assertEquals(BigInteger.ZERO, exact.halfWidth());

    // with a DP strategy the same shares lift to the same values (they lie in [0, reports * max])
    UnshardResult lifted = DpUnsharder.of(Prio3DpMechanism.of(variant, DpStrategy.PureDpDiscreteLaplace.parse("1")))
        .unshard(shares, reports);
    assertEquals(expected, lifted.estimates(), name);
    assertEquals(shares.size(), lifted.noisedShares());
  }
}
