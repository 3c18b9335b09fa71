package org.priodp.aggregator.dap;

import java.util.Objects;

/**
 * Signals a malformed DAP-18 message (section "Errors": {@code invalidMessage}, or
 * {@code invalidExtension} for a badly ordered extension list); the message names the field.
 */
public final class DapDecodeException extends IllegalArgumentException {
  private final DapError error;
  private final String field;

  /** Creates an {@code invalidMessage} error about the named field. */
  public DapDecodeException(String field, String detail) {
    this(DapError.INVALID_MESSAGE, field, detail);
  }

  /** Creates an error of the given DAP type about the named field. */
  public DapDecodeException(DapError error, String field, String detail) {
    super(field + ": " + detail);
    this.error = Objects.requireNonNull(error, "error");
    this.field = Objects.requireNonNull(field, "field");
  }

  /** Returns the DAP error type to report (usually {@link DapError#INVALID_MESSAGE}). */
  public DapError error() {
    return error;
  }

  /** Returns the dotted name of the offending field, e.g. {@code batch_selector.config}. */
  public String field() {
    return field;
  }
}
