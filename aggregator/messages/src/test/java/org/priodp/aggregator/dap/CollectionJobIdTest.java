package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;

import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class CollectionJobIdTest {
  @Test
  void matchesTheSpecUrlExample() {
    // DAP-18 "HTTP Usage": collection job ID 95 (the aggregation job example, same form) ce da 51 ... 28 is lc7aUeGpdSNosNlh-UZhKA in URLs
    CollectionJobId id = new CollectionJobId(hex("95ceda51e1a9752368b0d961f9466128"));
    CodecChecks.assertSpecBytes("95ceda51e1a9752368b0d961f9466128", id,
        CollectionJobId::encode, CollectionJobId::decode);
    assertEquals("lc7aUeGpdSNosNlh-UZhKA", id.toBase64Url());
    assertEquals(id, CollectionJobId.fromBase64Url("lc7aUeGpdSNosNlh-UZhKA"));
  }

  @Test
  void rejectsWrongLengthsAndBadBase64() {
    assertThrows(IllegalArgumentException.class, () -> new CollectionJobId(new byte[32]));
    assertRejects(CollectionJobId::decode, new byte[17], "CollectionJobID");
    CodecChecks.assertEveryTruncationRejected(new byte[16], CollectionJobId::decode);
    assertRejects(b -> CollectionJobId.fromBase64Url("lc7aUeGpdSNosNlh-UZhKA=="), new byte[0],
        "collection_job_id");
    assertRejects(b -> CollectionJobId.fromBase64Url("lc7aUeGpdSNosNlh-UZh"), new byte[0],
        "collection_job_id");
    SecureRandom rnd = new SecureRandom();
    assertNotEquals(CollectionJobId.random(rnd), CollectionJobId.random(rnd));
  }
}
