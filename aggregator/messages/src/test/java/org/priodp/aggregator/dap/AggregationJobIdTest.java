package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;

import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class AggregationJobIdTest {
  @Test
  void matchesTheSpecUrlExample() {
    // DAP-18 "HTTP Usage": aggregation job ID 95 ce da 51 ... 28 is lc7aUeGpdSNosNlh-UZhKA in URLs
    AggregationJobId id = new AggregationJobId(hex("95ceda51e1a9752368b0d961f9466128"));
    CodecChecks.assertSpecBytes("95ceda51e1a9752368b0d961f9466128", id,
        AggregationJobId::encode, AggregationJobId::decode);
    assertEquals("lc7aUeGpdSNosNlh-UZhKA", id.toBase64Url());
    assertEquals(id, AggregationJobId.fromBase64Url("lc7aUeGpdSNosNlh-UZhKA"));
  }

  @Test
  void rejectsWrongLengthsAndBadBase64() {
    assertThrows(IllegalArgumentException.class, () -> new AggregationJobId(new byte[32]));
    assertRejects(AggregationJobId::decode, new byte[17], "AggregationJobID");
    CodecChecks.assertEveryTruncationRejected(new byte[16], AggregationJobId::decode);
    assertRejects(b -> AggregationJobId.fromBase64Url("lc7aUeGpdSNosNlh-UZhKA=="), new byte[0],
        "aggregation_job_id");
    assertRejects(b -> AggregationJobId.fromBase64Url("lc7aUeGpdSNosNlh-UZh"), new byte[0],
        "aggregation_job_id");
    SecureRandom rnd = new SecureRandom();
    assertNotEquals(AggregationJobId.random(rnd), AggregationJobId.random(rnd));
  }
}
