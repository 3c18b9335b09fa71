package org.priodp.aggregator.dap;

import java.util.List;
import java.util.Random;

/** Sample DAP-18 messages shared by the codec tests. */
final class Samples {
  private Samples() {
  }

  static byte[] bytes(int length, int seed) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    return b;
  }

  static AggregateShareReq timeIntervalReq() {
    CollectionJobReq c = new CollectionJobReq(new Query.TimeInterval(Interval.of(1659540, 100)),
        new byte[] {0, 1, 2}, List.of());
    return new AggregateShareReq(c, new BatchSelector.TimeInterval(Interval.of(1659544, 10)),
        1000, bytes(32, 1));
  }

  static AggregateShareReq leaderSelectedReq() {
    CollectionJobReq c = new CollectionJobReq(new Query.LeaderSelected(), new byte[0],
        List.of(new CollectionJobExtension(3, new byte[] {9}), new CollectionJobExtension(7, new byte[0])));
    return new AggregateShareReq(c, new BatchSelector.LeaderSelected(new BatchId(bytes(32, 2))),
        -1L, bytes(32, 3));
  }

  static TaskConfiguration taskConfiguration() {
    return new TaskConfiguration("task".getBytes(), "https://leader.example/dap",
        "https://helper.example/dap", 3600, 100, BatchMode.TIME_INTERVAL, new byte[0], 1,
        new byte[0], List.of(TaskExtension.taskInterval(Interval.of(100, 50))));
  }
}
