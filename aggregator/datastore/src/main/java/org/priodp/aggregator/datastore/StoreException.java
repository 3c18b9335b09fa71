package org.priodp.aggregator.datastore;

/** Signals that the aggregate-share store could not complete an operation (a database failure). */
public final class StoreException extends RuntimeException {
  /** Creates the exception with a message and cause. */
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
