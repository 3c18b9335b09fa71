package org.priodp.aggregator.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.priodp.aggregator.core.HelperPeer;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregateShare;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.AggregationJobResp;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.server.DapRouter;
import org.priodp.aggregator.server.HttpReply;

/**
 * A {@link HelperPeer} that talks to a Helper's {@link DapRouter} in process, as the
 * HTTP peer would over the wire (DAP-18 "Obtaining Aggregate Shares", "Asynchronous Request
 * Handling"): it POSTs the AggregateShareReq with the Leader's token; a 200 with a body is the
 * share; a 200 with an empty body and a Location is polled with GET up to {@code maxPolls} times,
 * after which it gives up with a retryable exception (as a real peer does after its time
 * limit); a problem document is a refusal (4xx) or a retryable failure (5xx). Before every call
 * it runs {@link #beforeAsk}, so a test can look at the Leader's store at the moment the Helper
 * is first asked. It counts calls and records the statuses it saw.
 */
public final class InProcessHelperPeer implements HelperPeer {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final DapRouter helper;
  /** GETs at most per call before giving up (retryable). */
  public volatile int maxPolls;
  /** Calls of {@link #aggregateShare}. */
  public final AtomicInteger calls = new AtomicInteger();
  /** GETs sent while polling. */
  public final AtomicInteger polls = new AtomicInteger();
  /** "POST 200 empty Retry-After=1", "GET 200 body", ... in order. */
  public final List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
  /** Runs before each call (default: nothing). */
  public volatile Runnable beforeAsk = () -> { };
  /** Runs between two polls (default: nothing); e.g. lets a background job finish. */
  public volatile Runnable betweenPolls = () -> { };

  /** Creates the peer for a Helper router; {@code maxPolls} GETs at most per call. */
  public InProcessHelperPeer(DapRouter helper, int maxPolls) {
    this.helper = helper;
    this.maxPolls = maxPolls;
  }

  @Override
  public AggregationJobResp initializeAggregationJob(TaskDefinition task,
      AggregationJobInitReq req) {
    throw new UnsupportedOperationException("not used by collection");
  }

  @Override
  public AggregateShare aggregateShare(TaskDefinition task, AggregateShareReq req) {
    calls.incrementAndGet();
    beforeAsk.run();
    String path = "/tasks/" + task.taskId().toBase64Url() + "/aggregate_shares";
    HttpReply r = helper.handle("POST", path, "Bearer " + Fixture.TOKEN,
        DapMediaType.AGGREGATE_SHARE_REQ.contentType(), req.encode());
    note("POST", r);
    for (int i = 0; ; i++) {
      if (r.status() >= 400) {
        throw refusal(r);
      }
      if (r.body().length > 0) {
        return AggregateShare.decode(r.body());
      }
      String location = r.headers().get("Location");
      if (location == null || i >= maxPolls) {
        throw new HelperException("the Helper's aggregate share is not ready after " + i
            + " polls", null, true, null);
      }
      betweenPolls.run();
      polls.incrementAndGet();
      r = helper.handle("GET", location, "Bearer " + Fixture.TOKEN, null, null);
      note("GET", r);
    }
  }

  private void note(String method, HttpReply r) {
    String retry = r.headers().get("Retry-After");
    seen.add(method + " " + r.status() + (r.body().length == 0 ? " empty" : " body")
        + (retry == null ? "" : " Retry-After=" + retry));
  }

  private static HelperException refusal(HttpReply r) {
    DapError error = null;
    String detail = "";
    try {
      JsonNode n = MAPPER.readTree(r.body());
      String type = n.path("type").asText("");
      if (type.startsWith(DapError.URN_PREFIX)) {
        error = DapError.fromType(type);
      }
      detail = n.path("detail").asText("");
    } catch (java.io.IOException | IllegalArgumentException e) {
      detail = new String(r.body(), StandardCharsets.UTF_8);
    }
    return new HelperException("the Helper answered " + r.status() + ": " + detail, error,
        r.status() >= 500, null);
  }
}
