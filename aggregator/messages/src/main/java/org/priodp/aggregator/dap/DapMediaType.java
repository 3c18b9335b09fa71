package org.priodp.aggregator.dap;

/**
 * The DAP-18 protocol message media types (section "Protocol Message Media Type"):
 * {@code application/ppm-dap} with a required {@code message} parameter.
 */
public enum DapMediaType {
  HPKE_CONFIG_LIST("hpke-config-list"),
  UPLOAD_REQ("upload-req"),
  UPLOAD_ERRORS("upload-errors"),
  AGGREGATION_JOB_INIT_REQ("aggregation-job-init-req"),
  AGGREGATION_JOB_RESP("aggregation-job-resp"),
  AGGREGATION_JOB_CONTINUE_REQ("aggregation-job-continue-req"),
  AGGREGATE_SHARE_REQ("aggregate-share-req"),
  AGGREGATE_SHARE("aggregate-share"),
  COLLECTION_JOB_REQ("collection-job-req"),
  COLLECTION_JOB_RESP("collection-job-resp");

  /** The media type shared by all DAP messages. */
  public static final String BASE = "application/ppm-dap";

  private final String message;

  DapMediaType(String message) {
    this.message = message;
  }

  /** Returns the value of the {@code message} parameter, e.g. {@code aggregate-share-req}. */
  public String message() {
    return message;
  }

  /** Returns the full Content-Type value, e.g. {@code application/ppm-dap;message=aggregate-share}. */
  public String contentType() {
    return BASE + ";message=" + message;
  }
}
