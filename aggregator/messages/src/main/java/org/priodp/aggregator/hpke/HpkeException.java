package org.priodp.aggregator.hpke;

import java.security.GeneralSecurityException;

/**
 * Signals that an RFC 9180 operation failed: a malformed or invalid key or encapsulation, or an
 * AEAD open that did not authenticate (RFC 9180 section 6.1 "OpenError").
 */
public final class HpkeException extends GeneralSecurityException {
  /** Creates the exception with a message and the underlying cause. */
  public HpkeException(String message, Throwable cause) {
    super(message, cause);
  }
}
