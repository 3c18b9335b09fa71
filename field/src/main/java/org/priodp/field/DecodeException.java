package org.priodp.field;

/**
 * Thrown when bytes are not a valid encoding: a wrong length, or a field element that is not
 * canonical. The message names what was expected and, for elements, the index.
 */
public final class DecodeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Creates an exception with a message that says what is wrong with the input. */
  public DecodeException(String message) {
    super(message);
  }
}
