package org.priodp.conformance.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.priodp.aggregator.cli.PrioDpSubcommand;
import org.priodp.conformance.vectors.VdafVectorRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Runs official VDAF test vector files (VDAF draft-20, section "Test Vectors"): the VDAF draft's
 * Prio3 vectors and the Prio3L1BoundSum vector (draft-ietf-ppm-l1-bound-sum-02) alike.
 */
@Command(
    name = "vectors",
    mixinStandardHelpOptions = true,
    description = {
      "Checks Prio3 against VDAF test vector files, byte for byte.",
      "",
      "Runs every operation of the vector files and compares each output byte for byte. Prints"
          + " PASS <file> or FAIL <file>: <first mismatch> per file, then '<n> passed, <m> failed'."
          + " Exits 1 if any file failed or could not be read."
    },
    footer = {"%nExample:", "  prio-dp vectors ../shared/vectors/vdaf-18 ../shared/vectors/l1-bound-sum"})
public final class VectorsCommand implements PrioDpSubcommand {

  @Parameters(
      paramLabel = "PATH",
      arity = "1..*",
      description = "Vector files, or folders searched recursively for .json files.")
  List<Path> paths;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    int passed = 0;
    int failed = 0;
    for (Path p : paths) {
      List<Path> files;
      if (!Files.exists(p)) {
        out.println("FAIL " + p + ": no such file or folder");
        failed++;
        continue;
      }
      try {
        files = VdafVectorRunner.collect(List.of(p));
      } catch (IOException | RuntimeException e) {
        out.println("FAIL " + p + ": cannot list: " + e.getMessage());
        failed++;
        continue;
      }
      if (files.isEmpty()) {
        out.println("FAIL " + p + ": no .json files found");
        failed++;
        continue;
      }
      for (Path f : files) {
        VdafVectorRunner.FileResult r = VdafVectorRunner.run(f);
        if (r.passed()) {
          out.println("PASS " + f);
          passed++;
        } else {
          out.println("FAIL " + f + ": " + r.firstFailure());
          failed++;
        }
      }
    }
    out.println(passed + " passed, " + failed + " failed");
    out.flush();
    return failed == 0 ? 0 : 1;
  }
}
