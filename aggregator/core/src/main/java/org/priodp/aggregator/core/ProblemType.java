package org.priodp.aggregator.core;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.DapError;

/**
 * Names why a request was refused, for the "type", "title" and status of its problem document
 * (DAP-18 "Errors"; RFC 9457 "Problem Details for HTTP APIs"): either a DAP error type ({@link
 * Dap}, {@code urn:ietf:params:ppm:dap:error:...}) or a prio-dp problem type ({@link PrioDp},
 * {@code urn:priodp:problem:...}) for a refusal DAP does not define. Nothing else is a problem
 * type, so whoever maps a refusal to HTTP handles both kinds in one place. Immutable.
 */
public sealed interface ProblemType permits ProblemType.Dap, ProblemType.PrioDp {

  /** The prefix of every prio-dp problem type URN. */
  String PRIODP_URN_PREFIX = "urn:priodp:problem:";

  /**
   * A release the task's privacy budget cannot pay for (issue 25): the ledger's worst window
   * plus this release's per-unit cost would exceed the task's cap. Status 403: the request is
   * well-formed and authorized, the task's policy forbids it, and repeating it does not help
   * (400 would tell the sender its message is wrong).
   */
  PrioDp PRIVACY_BUDGET_EXHAUSTED = new PrioDp("privacyBudgetExhausted",
      "The task's privacy budget cannot pay for this release", 403);

  /**
   * A release refused because the task's collector identity does not authorize the Collector
   * HPKE configuration it would be encrypted to (draft-ietf-ppm-dap-attribution-00 section 6.1):
   * the identity answered and its list lacks the key. Status 403, as for a budget: the request is
   * well-formed and authorized, the task's binding forbids it. Nothing was encrypted or drawn.
   */
  PrioDp COLLECTOR_NOT_AUTHORIZED = new PrioDp("collectorNotAuthorized",
      "The collector identity does not authorize the task's Collector HPKE configuration", 403);

  /**
   * A release postponed because the task's collector identity could not be asked now
   * (unreachable, untrusted certificate, an error status or a wrong answer; draft-ietf-ppm-dap-
   * attribution-00 section 6.1). Status 503: the Leader retries the byte-identical request later.
   * Nothing was encrypted or drawn.
   */
  PrioDp COLLECTOR_IDENTITY_UNAVAILABLE = new PrioDp("collectorIdentityUnavailable",
      "The collector identity could not be checked", 503);

  /**
   * An upload to {@code tasks/{task-id}/reports/{collection-job-id}} (draft-ietf-ppm-dap-attribution-00
   * section 4) names no collection job of a collector-selected task that takes uploads: the job
   * does not exist (yet; the draft's "404 and Retry-After") or was deleted, or the task is of
   * another batch mode. Status 404.
   */
  PrioDp UNKNOWN_COLLECTION_JOB = new PrioDp("unknownCollectionJob",
      "No collection job takes uploads at this URL", 404);

  /** The prio-dp problem types this aggregator raises, which {@link #ofType} resolves. */
  List<PrioDp> PRIODP_TYPES = List.of(PRIVACY_BUDGET_EXHAUSTED, COLLECTOR_NOT_AUTHORIZED,
      COLLECTOR_IDENTITY_UNAVAILABLE, UNKNOWN_COLLECTION_JOB);

  /** Returns the full URN of the "type" member. */
  String urn();

  /** Returns the "title" member: a short summary that does not change between occurrences. */
  String title();

  /** Returns the HTTP status of the problem document. */
  int status();

  /**
   * Returns the token a failed job or request records and {@link #ofType} reads back: DAP's
   * token for a DAP error (e.g. {@code invalidMessage}, as {@link DapError#type()}), the full URN
   * for a prio-dp type, which no DAP token can be mistaken for.
   */
  String type();

  /** Returns the DAP error this type is, if it is one. */
  default Optional<DapError> dapError() {
    return this instanceof Dap d ? Optional.of(d.error()) : Optional.empty();
  }

  /** Returns the problem type of a DAP error. */
  static ProblemType of(DapError error) {
    return new Dap(error);
  }

  /**
   * Returns the problem type a recorded {@link #type()} names: a DAP error by token or URN, or
   * one of {@link #PRIODP_TYPES} by URN; empty for anything else.
   */
  static Optional<ProblemType> ofType(String typeOrUrn) {
    Objects.requireNonNull(typeOrUrn, "typeOrUrn");
    for (PrioDp p : PRIODP_TYPES) {
      if (p.urn().equals(typeOrUrn)) {
        return Optional.of(p);
      }
    }
    try {
      return Optional.of(of(DapError.fromType(typeOrUrn)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * A DAP error type (DAP-18 "Errors", table "DAP errors"): its DAP URN, a title, and 404 for
   * unrecognizedTask, 400 for the others (DAP-18 treats every one as a client error).
   */
  record Dap(DapError error) implements ProblemType {
    /** Rejects a null error. */
    public Dap {
      Objects.requireNonNull(error, "error");
    }

    @Override
    public String urn() {
      return error.urn();
    }

    @Override
    public String type() {
      return error.type();
    }

    @Override
    public int status() {
      return error == DapError.UNRECOGNIZED_TASK ? 404 : 400;
    }

    @Override
    public String title() {
      return switch (error) {
        case INVALID_MESSAGE -> "The message could not be parsed or was invalid";
        case UNRECOGNIZED_TASK -> "Unknown task ID";
        case UNRECOGNIZED_AGGREGATION_JOB -> "Unknown aggregation job ID";
        case BATCH_INVALID -> "The batch boundary check for the query failed";
        case INVALID_BATCH_SIZE -> "The batch holds an invalid number of reports";
        case INVALID_AGGREGATION_PARAMETER -> "The aggregation parameter is invalid";
        case BATCH_MISMATCH -> "The aggregators disagree on the reports aggregated in the batch";
        case STEP_MISMATCH -> "The aggregators disagree on the current step";
        case BATCH_OVERLAP -> "The query includes reports that were collected in a different batch";
        case UNSUPPORTED_EXTENSION -> "Unsupported extension";
        case INVALID_EXTENSION -> "Invalid extension";
      };
    }
  }

  /**
   * A prio-dp problem type (RFC 9457 section 4, a type of our own where DAP-18 defines none):
   * {@code urn:priodp:problem:NAME}, with NAME a camelCase token like DAP's that is not a DAP
   * error token, a title, and a 4xx or 5xx status.
   */
  record PrioDp(String name, String title, int status) implements ProblemType {
    /** Validates the name, title and status. */
    public PrioDp {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(title, "title");
      if (!name.matches("[a-z][A-Za-z0-9]*")) {
        throw new IllegalArgumentException("a prio-dp problem name is a camelCase token, got \""
            + name + "\"");
      }
      for (DapError e : DapError.values()) {
        if (e.type().equals(name)) {
          throw new IllegalArgumentException("\"" + name + "\" is a DAP error type");
        }
      }
      if (title.isBlank()) {
        throw new IllegalArgumentException("a problem type needs a title");
      }
      if (status < 400 || status > 599) {
        throw new IllegalArgumentException("problem status must be 4xx or 5xx, got " + status);
      }
    }

    @Override
    public String urn() {
      return PRIODP_URN_PREFIX + name;
    }

    @Override
    public String type() {
      return urn();
    }
  }
}
