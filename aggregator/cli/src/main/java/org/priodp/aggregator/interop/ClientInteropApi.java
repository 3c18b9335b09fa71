package org.priodp.aggregator.interop;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.priodp.aggregator.client.DapClient;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.vdaf.Prio3Variant;

/**
 * The Client's interoperation test API (draft-dcook-ppm-dap-interop-test-design, "Client"),
 * served by {@code prio-dp interop-client}: {@code ready}, and {@code upload}, which shards one
 * measurement with Prio3, seals it to both aggregators' HPKE configurations and uploads the
 * report with {@link DapClient} (DAP-18 "Uploading Reports"), answering once the Leader has
 * accepted it ({@code "success"}) or refused it ({@code "error"} with the report error or the
 * problem document).
 *
 * <p>upload reads task_id, leader, helper, vdaf, measurement, time (optional, seconds since the
 * epoch; default now) and time_precision. DAP-18 binds the whole TaskConfiguration into the
 * input shares' HPKE AAD, so the Client must also be given what the draft gives only the
 * aggregators: min_batch_size and batch_mode (refused when missing), and prio-dp's task_info
 * when the aggregators got one ({@link InteropTasks}).
 */
public final class ClientInteropApi extends InteropApi {
  private final HttpClient http;
  private final SecureRandom random;

  /** Creates the API, uploading over {@code http} with report IDs and shares from {@code random}. */
  public ClientInteropApi(HttpClient http, SecureRandom random) {
    this.http = Objects.requireNonNull(http, "http");
    this.random = Objects.requireNonNull(random, "random");
    endpoint("ready", r -> JSON.createObjectNode());
    endpoint("upload", this::upload);
  }

  @Override
  protected String role() {
    return "Client";
  }

  private ObjectNode upload(Request r) throws IOException, InterruptedException {
    TaskParameters task = task(r);
    List<BigInteger> measurement = InteropTasks.measurement(r, task.variant());
    Clock clock = r.has("time")
        ? Clock.fixed(Instant.ofEpochSecond(r.number("time")), ZoneOffset.UTC)
        : Clock.systemUTC();
    UploadErrors errors = new DapClient(task, http, random, clock).upload(List.of(measurement));
    if (!errors.status().isEmpty()) {
      return error("the Leader refused the report: " + errors.status().stream()
          .map(s -> s.error().toString()).collect(Collectors.joining(", ")));
    }
    return success();
  }

  /** Reads the task of an upload request; IllegalArgumentException names the bad field. */
  static TaskParameters task(Request r) {
    String leader = InteropTasks.endpoint(r, "leader");
    String helper = InteropTasks.endpoint(r, "helper");
    Prio3Variant variant = InteropTasks.vdaf(r);
    long precision = r.number("time_precision");
    InteropTasks.requireForAad(r, "Client", "min_batch_size", "batch_mode");
    return InteropTasks.parameters(r, leader, helper, variant, precision,
        r.number("min_batch_size"), InteropTasks.batchMode(r));
  }
}
