package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.PingPongMessage;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;

/**
 * The ping-pong state machine of VDAF-20 for one-round Prio3, as the Leader and the Helper run
 * it: initialize, then FinishedWithOutbound on the Helper, Finished on the Leader, whose output
 * shares add up to the measurement; every message out of turn or that does not verify is
 * Rejected. The seed is printed.
 */
class PingPongTest {
  private final Prio3 prio3 = new Prio3(new Prio3Variant.Histogram(5, 2));
  private TaskId taskId;
  private PingPong pingPong;
  private Prio3.VerifyInitResult leaderInit;
  private Prio3.VerifyInitResult helperInit;
  private int measurement;

  @BeforeEach
  void shard() {
    long seed = System.nanoTime();
    System.out.println("PingPongTest seed " + seed);
    Random random = new Random(seed);
    byte[] id = new byte[32];
    random.nextBytes(id);
    taskId = new TaskId(id);
    pingPong = new PingPong(prio3, DapVersion.DAP_19, taskId);
    byte[] verifyKey = new byte[32];
    random.nextBytes(verifyKey);
    byte[] nonce = new byte[16];
    random.nextBytes(nonce);
    byte[] rand = new byte[prio3.randSize()];
    random.nextBytes(rand);
    measurement = random.nextInt(5);
    byte[] ctx = DapVersion.DAP_19.vdafContext(taskId);
    Prio3.ShardResult shard = prio3.shard(ctx, List.of(BigInteger.valueOf(measurement)), nonce,
        rand);
    leaderInit = prio3.verifyInit(verifyKey, ctx, 0, nonce, shard.publicShare(),
        shard.inputShares().get(0));
    helperInit = prio3.verifyInit(verifyKey, ctx, 1, nonce, shard.publicShare(),
        shard.inputShares().get(1));
  }

  @Test
  void oneRoundEndsWithBothOutputSharesOfTheMeasurement() {
    PingPong.Continued leader = pingPong.leaderInitialized(leaderInit);
    assertEquals(new PingPongMessage.Initialize(leaderInit.verifierShare().encode()),
        leader.outbound());
    PingPong.FinishedWithOutbound helper = assertInstanceOf(
        PingPong.FinishedWithOutbound.class,
        pingPong.helperInitialized(helperInit, leader.outbound().encode()));
    assertInstanceOf(PingPongMessage.Finish.class, helper.outbound());
    PingPong.Finished done = assertInstanceOf(PingPong.Finished.class,
        pingPong.leaderContinued(leader, helper.outbound().encode()));
    FieldVector leaderShare = done.outShare();
    List<BigInteger> sum = prio3.unshard(List.of(leaderShare, helper.outShare()), 1);
    for (int i = 0; i < sum.size(); i++) {
      assertEquals(i == measurement ? BigInteger.ONE : BigInteger.ZERO, sum.get(i));
    }
  }

  @Test
  void theHelperRejectsAnythingButAnInitializeThatVerifies() {
    PingPong.Continued leader = pingPong.leaderInitialized(leaderInit);
    byte[] share = leaderInit.verifierShare().encode();
    assertInstanceOf(PingPong.Rejected.class, pingPong.helperInitialized(helperInit,
        new PingPongMessage.Finish(share).encode()), "finish");
    assertInstanceOf(PingPong.Rejected.class, pingPong.helperInitialized(helperInit,
        new PingPongMessage.Continue(share, share).encode()), "continue");
    assertInstanceOf(PingPong.Rejected.class, pingPong.helperInitialized(helperInit,
        new byte[] {9, 9}), "not a message");
    assertInstanceOf(PingPong.Rejected.class, pingPong.helperInitialized(helperInit,
        new PingPongMessage.Initialize(new byte[] {1}).encode()), "not a verifier share");
    byte[] tampered = leader.outbound().encode();
    tampered[tampered.length - 1] ^= 1;
    assertInstanceOf(PingPong.Rejected.class, pingPong.helperInitialized(helperInit, tampered),
        "a share that does not verify");
  }

  @Test
  void theLeaderRejectsAnythingButAFinishThatVerifies() {
    PingPong.Continued leader = pingPong.leaderInitialized(leaderInit);
    PingPong.FinishedWithOutbound helper = (PingPong.FinishedWithOutbound)
        pingPong.helperInitialized(helperInit, leader.outbound().encode());
    byte[] message = ((PingPongMessage.Finish) helper.outbound()).verifierMessage().toByteArray();
    assertInstanceOf(PingPong.Rejected.class, pingPong.leaderContinued(leader,
        new PingPongMessage.Initialize(message).encode()), "initialize");
    assertInstanceOf(PingPong.Rejected.class, pingPong.leaderContinued(leader,
        new PingPongMessage.Continue(message, message).encode()), "continue: Prio3 has one round");
    assertInstanceOf(PingPong.Rejected.class, pingPong.leaderContinued(leader, new byte[0]),
        "not a message");
    byte[] tampered = helper.outbound().encode();
    tampered[tampered.length - 1] ^= 1;
    assertInstanceOf(PingPong.Rejected.class, pingPong.leaderContinued(leader, tampered),
        "a verifier message that does not verify");
  }
}
