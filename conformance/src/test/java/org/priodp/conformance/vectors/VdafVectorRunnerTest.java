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
 * Runs every official VDAF test vector of {@code ../shared/vectors/vdaf-18} and the
 * Prio3L1BoundSum vector of {@code ../shared/vectors/l1-bound-sum} through {@link
 * VdafVectorRunner}, one dynamic test per file and operation reporting every mismatch, and checks
 * that the runner reports broken vectors.
 */
class VdafVectorRunnerTest {

  static Path vectorDir() {
    return vectorDir("vdaf-18");
  }

  /** Returns the folder {@code ../shared/vectors/<folder>}, failing the test if it is missing. */
  static Path vectorDir(String folder) {
    String root = System.getProperty("priodp.root");
    if (root == null || root.isEmpty()) {
      fail("system property priodp.root is not set; cannot locate ../shared/vectors/" + folder);
    }
    Path dir = Path.of(root).resolve("../shared/vectors/" + folder).normalize();
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

  /** The libprio-rs Prio3L1BoundSum vector (draft-ietf-ppm-l1-bound-sum-02, VDAF-20 schema). */
  @TestFactory
  Stream<DynamicNode> l1BoundSumVector() throws IOException {
    List<Path> files = VdafVectorRunner.collect(List.of(vectorDir("l1-bound-sum")));
    assertEquals(List.of("Prio3L1BoundSum_0.json"),
        files.stream().map(f -> f.getFileName().toString()).collect(Collectors.toList()));
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

  /**
   * A Prio3L1BoundSum vector whose measurement is changed (the first component of report 1, 240,
   * becomes 239: still within max_value) fails at that report's shard, reporting both fields that
   * differ (the public share's joint randomness part and the Leader's share; the Helper's share is
   * a seed), and nowhere else, as the later operations read the vector's own messages.
   */
  @Test
  void aChangedL1BoundSumMeasurementIsReportedAtItsShard() throws IOException {
    String json = Files.readString(vectorDir("l1-bound-sum").resolve("Prio3L1BoundSum_0.json"), StandardCharsets.UTF_8);
    // report 1's measurement [240, 0, ...]: its first number
    int at = json.indexOf("240", json.indexOf("\"measurement\"", json.indexOf("\"measurement\"") + 1));
    assertTrue(at > 0, "layout of the vector changed");
    String broken = json.substring(0, at) + "239" + json.substring(at + 3);
    VdafVectorRunner.FileResult r = VdafVectorRunner.run(Path.of("x.json"), "Prio3L1BoundSum_0.json", broken);
    assertNull(r.error());
    List<VdafVectorRunner.OperationResult> failed =
        r.operations().stream().filter(o -> !o.passed()).collect(Collectors.toList());
    assertEquals("shard", failed.get(0).operation());
    assertEquals(1, failed.get(0).reportIndex());
    assertEquals(List.of("public_share", "input_shares[0]"),
        failed.get(0).mismatches().stream().map(VdafVectorRunner.Mismatch::field).collect(Collectors.toList()));
    // the other operations read the vector's messages: only the shard mismatches
    assertEquals(1, failed.size(), failed.toString());
    // a measurement over the bound cannot be sharded at all: the shard fails
    String over = json.substring(0, at) + "241" + json.substring(at + 3);
    VdafVectorRunner.FileResult o = VdafVectorRunner.run(Path.of("y.json"), "Prio3L1BoundSum_0.json", over);
    assertEquals("success", o.operations().get(6).mismatches().get(0).field());
    assertTrue(o.operations().get(6).mismatches().get(0).detail().contains("exceeds max_value 240"),
        o.operations().get(6).mismatches().get(0).detail());
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
