package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

class AggregateShareAadTest {
  @Test
  void isTheConcatenationOfTaskIdTaskConfigurationAndCollectionJobReq() {
    TaskId task = new TaskId(Samples.bytes(32, 9));
    CollectionJobReq c = Samples.timeIntervalReq().collectionJobReq();
    AggregateShareAad aad = new AggregateShareAad(task, Samples.taskConfiguration(), c);
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.writeBytes(task.encode());
    expected.writeBytes(Samples.taskConfiguration().encode());
    expected.writeBytes(c.encode());
    assertArrayEquals(expected.toByteArray(), aad.encode());
    assertEquals(aad, AggregateShareAad.decode(aad.encode(), DapVersion.DAP_18));
    byte[] cut = java.util.Arrays.copyOf(aad.encode(), 40);
    assertThrows(DapDecodeException.class, () -> AggregateShareAad.decode(cut, DapVersion.DAP_18));
  }
}
