package org.priodp.aggregator.dap;

/**
 * The error types of DAP-18 (section "Errors", table "DAP errors"), each with its URN in the
 * {@code urn:ietf:params:ppm:dap:error} namespace for the "type" member of a problem document.
 */
public enum DapError {
  INVALID_MESSAGE("invalidMessage"),
  UNRECOGNIZED_TASK("unrecognizedTask"),
  UNRECOGNIZED_AGGREGATION_JOB("unrecognizedAggregationJob"),
  BATCH_INVALID("batchInvalid"),
  INVALID_BATCH_SIZE("invalidBatchSize"),
  INVALID_AGGREGATION_PARAMETER("invalidAggregationParameter"),
  BATCH_MISMATCH("batchMismatch"),
  STEP_MISMATCH("stepMismatch"),
  BATCH_OVERLAP("batchOverlap"),
  UNSUPPORTED_EXTENSION("unsupportedExtension"),
  INVALID_EXTENSION("invalidExtension");

  /** The prefix of every DAP error type URN. */
  public static final String URN_PREFIX = "urn:ietf:params:ppm:dap:error:";

  private final String type;

  DapError(String type) {
    this.type = type;
  }

  /** Returns the token of the error type, e.g. {@code invalidMessage}. */
  public String type() {
    return type;
  }

  /** Returns the full URN, e.g. {@code urn:ietf:params:ppm:dap:error:invalidMessage}. */
  public String urn() {
    return URN_PREFIX + type;
  }

  /** Returns the error with this token or URN; throws IllegalArgumentException if unknown. */
  public static DapError fromType(String typeOrUrn) {
    String token = typeOrUrn.startsWith(URN_PREFIX)
        ? typeOrUrn.substring(URN_PREFIX.length()) : typeOrUrn;
    for (DapError e : values()) {
      if (e.type.equals(token)) {
        return e;
      }
    }
    throw new IllegalArgumentException("unknown DAP error type: " + typeOrUrn);
  }
}
