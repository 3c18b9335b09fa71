package org.priodp.conformance.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every official VDAF test vector of {@code ../shared/vectors/vdaf-18} through {@link
 * VdafVectorRunner}, one dynamic test per file and operation reporting every mismatch, and checks
 * that the runner reports broken vectors.
 */
class VdafVectorRunnerTest {

  static Path vectorDir() {
    String root = System.getProperty("priodp.root");
    if (root == null || root.isEmpty()) {
      fail("system property priodp.root is not set; cannot locate ../shared/vectors/vdaf-18");
    }
    Path dir = Path.of(root).resolve("../shared/vectors/vdaf-18").normalize();
    if (!Files.isDirectory(dir)) {
      fail("shared test vector folder is missing: " + dir);
    }
    return dir;
  }

  @TestFactory
  Stream<DynamicNode> officialVectors() throws IOException {
    List<Path> files = VdafVectorRunner.collect(List.of(vectorDir()));
    assertFalse(files.isEmpty(), "no vector files in " + vectorDir());
    return files.stream().map(VdafVectorRunnerTest::fileNode);
  }

  private static DynamicNode fileNode(Path file) {
    VdafVectorRunner.FileResult result = VdafVectorRunner.run(file);
    String name = file.getFileName().toString();
    if (result.error() != null) {
      return DynamicTest.dynamicTest(name, () -> fail(name + ": " + result.error()));
    }
    List<DynamicTest> ops =
        result.operations().stream()
            .map(
                op ->
                    DynamicTest.dynamicTest(
                        op.describe(),
                        () -> {
                          if (!op.passed()) {
                            fail(
                                name + " " + op.describe() + ": "
                                    + op.mismatches().stream()
                                        .map(m -> m.field() + " mismatch: " + m.detail())
                                        .collect(Collectors.joining("; ")));
                          }
                        }))
            .collect(Collectors.toList());
    assertFalse(ops.isEmpty());
    return DynamicContainer.dynamicContainer(name, ops);
  }

  private static String read(String name) throws IOException {
    return Files.readString(vectorDir().resolve(name), StandardCharsets.UTF_8);
  }

  @Test
  void aChangedExpectedOutputIsReportedAsAMismatchOfThatField() throws IOException {
    String json = read("Prio3Count_0.json");
    // The first aggregate share "agg_shares": ["<hex>", ...]: change its first hex digit.
    int at = json.indexOf('"', json.indexOf('[', json.indexOf("\"agg_shares\"")) + 1) + 1;
    char c = json.charAt(at);
    String broken = json.substring(0, at) + (c == '0' ? '1' : '0') + json.substring(at + 1);
    VdafVectorRunner.FileResult r = VdafVectorRunner.run(Path.of("x.json"), "Prio3Count_0.json", broken);
    assertFalse(r.passed());
    assertNull(r.error());
    List<VdafVectorRunner.OperationResult> failed =
        r.operations().stream().filter(o -> !o.passed()).collect(Collectors.toList());
    // The aggregate of aggregator 0 mismatches, and unsharding then decodes a different sum.
    assertEquals("aggregate", failed.get(0).operation());
    assertEquals(0, failed.get(0).aggregatorId());
    assertEquals("agg_share", failed.get(0).mismatches().get(0).field());
    assertTrue(r.firstFailure().startsWith("operation #6 (aggregate, aggregator 0): agg_share mismatch"), r.firstFailure());
    assertEquals("unshard", failed.get(1).operation());
  }

  @Test
  void aNegativeVectorFailsWhenTheMarkedOperationSucceeds() throws IOException {
    // Mark the failing step of a negative vector as a success: the runner must report it.
    String json = read("Prio3Count_bad_wire_seed.json");
    int at = json.lastIndexOf("\"success\": false");
    assertTrue(at > 0);
    String flipped = json.substring(0, at) + "\"success\": true" + json.substring(at + "\"success\": false".length());
    VdafVectorRunner.FileResult r =
        VdafVectorRunner.run(Path.of("x.json"), "Prio3Count_bad_wire_seed.json", flipped);
    assertFalse(r.passed());
    assertEquals("success", r.operations().get(2).mismatches().get(0).field());
    // And a positive vector whose operation is marked as failing does not pass either.
    String positive = read("Prio3Count_0.json");
    int s = positive.indexOf("\"success\": true");
    String negated = positive.substring(0, s) + "\"success\": false" + positive.substring(s + "\"success\": true".length());
    assertFalse(VdafVectorRunner.run(Path.of("y.json"), "Prio3Count_0.json", negated).passed());
  }

  @Test
  void unreadableVectorsAreFileErrors() throws IOException {
    VdafVectorRunner.FileResult notJson = VdafVectorRunner.run(Path.of("a.json"), "Prio3Count_0.json", "{");
    assertNotNull(notJson.error());
    assertFalse(notJson.passed());
    VdafVectorRunner.FileResult unknown =
        VdafVectorRunner.run(Path.of("b.json"), "Poplar1_0.json", read("Prio3Count_0.json"));
    assertTrue(unknown.error().contains("unknown VDAF 'Poplar1'"), unknown.error());
    VdafVectorRunner.FileResult noParams =
        VdafVectorRunner.run(Path.of("c.json"), "Prio3Sum_0.json", read("Prio3Count_0.json"));
    assertTrue(noParams.error().contains("max_measurement"), noParams.error());
    VdafVectorRunner.FileResult badHex =
        VdafVectorRunner.run(
            Path.of("d.json"), "Prio3Count_0.json", read("Prio3Count_0.json").replace("\"ctx\": \"736f", "\"ctx\": \"zz6f"));
    assertTrue(badHex.error().contains("ctx"), badHex.error());
    VdafVectorRunner.FileResult missing = VdafVectorRunner.run(vectorDir().resolve("does-not-exist.json"));
    assertTrue(missing.error().startsWith("cannot read file"), missing.error());
  }
}
