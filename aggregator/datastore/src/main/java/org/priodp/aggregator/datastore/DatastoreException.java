package org.priodp.aggregator.datastore;

/**
 * Signals that the datastore failed to complete an operation (the database failed, was
 * unreachable or broke a constraint), as opposed to a domain refusal of DAP-18 ("Errors"), which
 * the core raises itself and which leaves the datastore as it was.
 */
public final class DatastoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message and cause. */
  public DatastoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
