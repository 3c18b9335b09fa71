package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class DapMediaTypeTest {
  @Test
  void coversEveryMessageOfTheSpecMediaTypeList() {
    // DAP-18 "Protocol Message Media Type": the ten message values, in the spec's order
    List<String> spec = List.of("hpke-config-list", "upload-req", "upload-errors",
        "aggregation-job-init-req", "aggregation-job-resp", "aggregation-job-continue-req",
        "aggregate-share-req", "aggregate-share", "collection-job-req", "collection-job-resp");
    assertEquals(spec, Arrays.stream(DapMediaType.values()).map(DapMediaType::message).toList());
    assertEquals("application/ppm-dap;message=aggregation-job-init-req",
        DapMediaType.AGGREGATION_JOB_INIT_REQ.contentType());
    assertEquals("application/ppm-dap;message=upload-req", DapMediaType.UPLOAD_REQ.contentType());
  }
}
