package org.priodp.aggregator.cli;

import java.io.PrintWriter;
import java.util.HexFormat;
import java.util.List;
import org.priodp.noise.RandomSource;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.compress.EliasCode;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.compress.dql.DqlCodec;
import org.priodp.noise.compress.dql.DqlDescription;
import org.priodp.noise.compress.dql.DqlParameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** The dyadic quantized Laplace codec (DQL paper, Algorithms 1 and 2) on the command line. */
@Command(
    name = "dql",
    mixinStandardHelpOptions = true,
    description = {
      "Compresses noisy values to a few bits each (dyadic quantized Laplace).",
      "",
      "The decoded value is x + Laplace(1/epsilon), epsilon*d-private against the database and"
          + " ell*epsilon*d-private against the decoder.",
      "",
      "Each encoding uses its own report index of the shared randomness: encode draws a fresh"
          + " random one (SecureRandom) unless --report is given and prints it; decode needs it."
    },
    footer = {
      "%nExamples:",
      "  prio-dp dql encode --epsilon 1 --ell 2 --shared-seed 00ff -- 0.5 -0.25",
      "  prio-dp dql decode --epsilon 1 --ell 2 --shared-seed 00ff --report N --count 2 HEX"
    },
    subcommands = {DqlCommand.Encode.class, DqlCommand.Decode.class})
public final class DqlCommand implements PrioDpSubcommand {

  @Spec CommandSpec spec;

  /** Without a subcommand: fail with the usage. */
  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand (encode or decode)");
  }

  /**
   * Returns a fresh report index in [0, 2^63) from SecureRandom: two encodings share a stream
   * only if their indices collide (probability about m^2 / 2^64 for m encodings).
   */
  static long freshReport() {
    return new java.security.SecureRandom().nextLong() >>> 1;
  }

  /** Options shared by encode and decode. */
  static final class Common {
    @Option(names = "--epsilon", required = true, paramLabel = "EPSILON",
        description = "Database epsilon > 0 (decimal or fraction).")
    String epsilon;

    @Option(names = "--ell", required = true, paramLabel = "ELL", description = "Decoder relaxation ell > 1: the decoder gets ell*epsilon.")
    String ell;

    @Option(names = "--shared-seed", required = true, paramLabel = "HEX", description = "Seed shared by encoder and decoder (hex).")
    String sharedSeed;

    @Option(names = "--report", paramLabel = "N",
        description = "Report index of the shared randomness, >= 0; never use one twice with the same --shared-seed."
            + " encode: a fresh random index unless given, printed as 'report N'; decode: required.")
    Long report;

    @Option(names = "--code", defaultValue = "delta", paramLabel = "CODE", description = "Signed Elias code: delta or gamma.")
    String code;

    DqlCodec codec() {
      EliasCode c = switch (code) {
        case "delta" -> EliasCode.DELTA;
        case "gamma" -> EliasCode.GAMMA;
        default -> throw new IllegalArgumentException("--code must be delta or gamma, got '" + code + "'");
      };
      if (report != null && report < 0) {
        throw new IllegalArgumentException("--report must be >= 0, got " + report);
      }
      return DqlCodec.of(DqlParameters.parse(epsilon, ell), c);
    }

    SharedRandomness shared() {
      return SharedRandomness.fromHex(sharedSeed);
    }
  }

  /** Encodes values into a description. */
  @Command(name = "encode", mixinStandardHelpOptions = true,
      description = {"Encodes values and prints their description (hex) and report index.",
        "",
        "Prints the description (hex), its length in bits and 'report N', the report index decode"
            + " needs (a fresh random one unless --report is given). Local randomness comes from"
            + " SecureRandom unless --local-seed is given."},
      footer = {"%nExample:", "  prio-dp dql encode --epsilon 1 --ell 2 --shared-seed 00ff -- 0.5 -0.25"})
  static final class Encode implements java.util.concurrent.Callable<Integer> {
    @Spec CommandSpec spec;

    @CommandLine.Mixin Common common = new Common();

    @Option(names = "--local-seed", paramLabel = "HEX",
        description = "Seed of the encoder's local randomness (its privacy noise): reproducible, so for tests only.")
    String localSeed;

    @Parameters(paramLabel = "X", arity = "1..*", description = "Values to encode (negative values after --, or as -0.5).")
    List<String> values;

    @Override
    public Integer call() {
      DqlCodec codec = common.codec();
      SharedRandomness shared = common.shared();
      double[] x = new double[values.size()];
      for (int i = 0; i < x.length; i++) {
        try {
          x[i] = Double.parseDouble(values.get(i).strip());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("cannot read value '" + values.get(i) + "' as a number");
        }
      }
      RandomSource local = localSeed == null ? RandomSource.secure() : SeededRandomSource.fromHex(localSeed);
      long report = common.report != null ? common.report : freshReport();
      DqlDescription d = codec.encode(x, shared, report, local);
      if (localSeed != null) {
        InsecureSeed.warn(spec, "--local-seed");
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(d.hex());
      out.println(d.bitLength() + " bits");
      out.println("report " + report);
      out.flush();
      return 0;
    }
  }

  /** Decodes a description into values. */
  @Command(name = "decode", mixinStandardHelpOptions = true,
      description = {"Decodes a description (hex) and prints one value per line.",
        "",
        "Give the same --epsilon, --ell, --shared-seed and --code as encode, and the --report index"
            + " it printed."},
      footer = {"%nExample:",
        "  prio-dp dql decode --epsilon 1 --ell 2 --shared-seed 00ff --report 5 --count 2 HEX"})
  static final class Decode implements java.util.concurrent.Callable<Integer> {
    @Spec CommandSpec spec;

    @CommandLine.Mixin Common common = new Common();

    @Option(names = "--count", required = true, paramLabel = "N", description = "Number of values in the description.")
    int count;

    @Parameters(paramLabel = "HEX", arity = "1", description = "The description printed by encode.")
    String hex;

    @Override
    public Integer call() {
      DqlCodec codec = common.codec();
      SharedRandomness shared = common.shared();
      byte[] bytes;
      try {
        bytes = HexFormat.of().parseHex(hex.strip());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("description must be an even number of hex digits, got '" + hex + "'");
      }
      if (common.report == null) {
        throw new IllegalArgumentException("missing --report: give the report index encode printed ('report N')");
      }
      double[] xhat = codec.decode(bytes, count, shared, common.report);
      PrintWriter out = spec.commandLine().getOut();
      for (double v : xhat) {
        out.println(v);
      }
      out.flush();
      return 0;
    }
  }
}
