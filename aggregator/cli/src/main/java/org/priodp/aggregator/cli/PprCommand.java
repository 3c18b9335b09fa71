package org.priodp.aggregator.cli;

import java.io.PrintWriter;
import java.util.HexFormat;
import java.util.List;
import org.priodp.noise.RandomSource;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.compress.BitReader;
import org.priodp.noise.compress.BitWriter;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.compress.ppr.GaussianPprChunk;
import org.priodp.noise.compress.ppr.PprCodec;
import org.priodp.noise.compress.ppr.PprEncoding;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** Poisson private representation of one Gaussian-mechanism chunk on the command line. */
@Command(
    name = "ppr",
    mixinStandardHelpOptions = true,
    description = {
      "Compresses a Gaussian-noised vector to one integer index (PPR).",
      "",
      "Poisson private representation compresses x + N(0, sigma^2 I) to an index K (Elias delta);"
          + " the decoder's output has exactly that Gaussian distribution. If the Gaussian mechanism"
          + " is locally private with (eps, delta), the index is locally private with"
          + " (2*alpha*eps, 2*delta) (PPR paper, Theorem 4.6).",
      "",
      "Each encoding uses its own report index of the shared randomness: encode draws a fresh"
          + " random one (SecureRandom) unless --report is given and prints it; decode needs it."
    },
    footer = {
      "%nExamples:",
      "  prio-dp ppr encode --sigma 0.5 --shared-seed 00ff -- 0.5 -0.25 0.1",
      "  prio-dp ppr decode --sigma 0.5 --shared-seed 00ff --report N --dim 3 --index K"
    },
    subcommands = {PprCommand.Encode.class, PprCommand.Decode.class})
public final class PprCommand implements PrioDpSubcommand {

  @Spec CommandSpec spec;

  /** Without a subcommand: fail with the usage. */
  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand (encode or decode)");
  }

  /** Options shared by encode and decode. */
  static final class Common {
    @Option(names = "--sigma", required = true, paramLabel = "SIGMA", description = "Noise standard deviation sigma > 0.")
    String sigma;

    @Option(names = "--norm-bound", defaultValue = "1", paramLabel = "C",
        description = "Bound on the chunk's L2 norm.")
    String normBound;

    @Option(names = "--alpha", defaultValue = "2", paramLabel = "ALPHA",
        description = "PPR parameter alpha > 1.")
    String alpha;

    @Option(names = "--shared-seed", required = true, paramLabel = "HEX", description = "Seed shared by encoder and decoder (hex).")
    String sharedSeed;

    @Option(names = "--report", paramLabel = "N",
        description = "Report index of the shared randomness, >= 0; never use one twice with the same --shared-seed."
            + " encode: a fresh random index unless given, printed as 'report N'; decode: required.")
    Long report;

    static double number(String option, String text) {
      double v;
      try {
        v = Double.parseDouble(text.strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(option + " must be a number, got '" + text + "'");
      }
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException(option + " must be finite, got '" + text + "'");
      }
      return v;
    }

    GaussianPprChunk chunk(int dim) {
      double s = number("--sigma", sigma);
      if (s <= 0) {
        throw new IllegalArgumentException("--sigma must be > 0, got " + sigma);
      }
      double c = number("--norm-bound", normBound);
      if (c <= 0) {
        throw new IllegalArgumentException("--norm-bound must be > 0, got " + normBound);
      }
      return GaussianPprChunk.of(dim, s, c);
    }

    PprCodec<double[]> codec(GaussianPprChunk chunk, long report, long cap) {
      double a = number("--alpha", alpha);
      if (a <= 1) {
        throw new IllegalArgumentException("--alpha must be > 1, got " + alpha);
      }
      if (report < 0) {
        throw new IllegalArgumentException("--report must be >= 0, got " + report);
      }
      return new PprCodec<>(chunk.proposal(), SharedRandomness.fromHex(sharedSeed), report, a, cap);
    }
  }

  /** Encodes one chunk. */
  @Command(name = "encode", mixinStandardHelpOptions = true,
      description = {"Encodes a chunk and prints its index K, code and report index.",
        "",
        "The chunk X is given by its values (dimension = their count). Prints the index K, its"
            + " Elias-delta code (hex) and length, the encoder's work, and 'report N', the report"
            + " index decode needs (a fresh random one unless --report is given). Local randomness"
            + " comes from SecureRandom unless --local-seed is given."},
      footer = {"%nExample:", "  prio-dp ppr encode --sigma 0.5 --shared-seed 00ff -- 0.5 -0.25 0.1"})
  static final class Encode implements java.util.concurrent.Callable<Integer> {
    @Spec CommandSpec spec;

    @CommandLine.Mixin Common common = new Common();

    @Option(names = "--local-seed", paramLabel = "HEX",
        description = "Seed of the encoder's local randomness (it chooses K): reproducible, so for tests only.")
    String localSeed;

    @Option(names = "--cap", defaultValue = "10000000", paramLabel = "N",
        description = "Iteration cap; a capped run is reported and exits with 3.")
    long cap;

    @Parameters(paramLabel = "X", arity = "1..*", description = "The chunk's values (negative values after --, or as -0.5).")
    List<String> values;

    @Override
    public Integer call() {
      double[] x = new double[values.size()];
      for (int i = 0; i < x.length; i++) {
        x[i] = Common.number("value", values.get(i));
      }
      GaussianPprChunk chunk = common.chunk(x.length);
      if (cap < 1) {
        throw new IllegalArgumentException("--cap must be >= 1, got " + cap);
      }
      long report = common.report != null ? common.report : DqlCommand.freshReport();
      PprCodec<double[]> codec = common.codec(chunk, report, cap);
      RandomSource local = localSeed == null ? RandomSource.secure() : SeededRandomSource.fromHex(localSeed);
      PprEncoding e = codec.encode(chunk.target(x), local);
      if (localSeed != null) {
        InsecureSeed.warn(spec, "--local-seed");
      }
      BitWriter w = new BitWriter();
      PprCodec.writeIndex(w, e.index());
      PrintWriter out = spec.commandLine().getOut();
      out.println("index " + e.index());
      out.println("code " + HexFormat.of().formatHex(w.toByteArray()) + " (" + e.bits() + " bits, Elias delta)");
      out.printf("work %d points, %d density ratios; proposal variance %.6g%n", e.iterations(), e.evaluations(),
          chunk.proposalVariance());
      out.println("report " + report);
      out.flush();
      if (e.capped()) {
        spec.commandLine().getErr().println("capped: stopped at " + cap + " points before the choice was certain; K is NOT an exact PPR sample");
        spec.commandLine().getErr().flush();
        return 3;
      }
      return 0;
    }
  }

  /** Decodes one chunk. */
  @Command(name = "decode", mixinStandardHelpOptions = true,
      description = {"Decodes an index or its code and prints one value per line.",
        "",
        "Give the index (--index) or its code (--code), the same --sigma, --norm-bound, --alpha and"
            + " --shared-seed as encode, and the --report index it printed."},
      footer = {"%nExample:",
        "  prio-dp ppr decode --sigma 0.5 --shared-seed 00ff --report 3 --dim 3 --index 12"})
  static final class Decode implements java.util.concurrent.Callable<Integer> {
    @Spec CommandSpec spec;

    @CommandLine.Mixin Common common = new Common();

    @Option(names = "--dim", required = true, paramLabel = "N", description = "Chunk dimension.")
    int dim;

    @CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source {
      @Option(names = "--index", paramLabel = "K", description = "The index K >= 1.")
      Long index;

      @Option(names = "--code", paramLabel = "HEX", description = "The Elias-delta code printed by encode.")
      String code;
    }

    @Override
    public Integer call() {
      if (dim < 1) {
        throw new IllegalArgumentException("--dim must be >= 1, got " + dim);
      }
      GaussianPprChunk chunk = common.chunk(dim);
      if (common.report == null) {
        throw new IllegalArgumentException("missing --report: give the report index encode printed ('report N')");
      }
      PprCodec<double[]> codec = common.codec(chunk, common.report, 1);
      long k;
      if (source.index != null) {
        k = source.index;
        if (k < 1) {
          throw new IllegalArgumentException("--index must be >= 1, got " + k);
        }
      } else {
        byte[] bytes;
        try {
          bytes = HexFormat.of().parseHex(source.code.strip());
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("--code must be an even number of hex digits, got '" + source.code + "'");
        }
        BitReader in = new BitReader(bytes);
        k = PprCodec.readIndex(in);
        if (!in.restIsZero()) {
          throw new IllegalArgumentException("--code has trailing bits after the Elias-delta word");
        }
      }
      PrintWriter out = spec.commandLine().getOut();
      for (double v : codec.decode(k)) {
        out.println(v);
      }
      out.flush();
      return 0;
    }
  }
}
