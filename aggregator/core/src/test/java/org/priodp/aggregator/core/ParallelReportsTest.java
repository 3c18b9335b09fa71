package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/** The order, bounds and failures of {@link ParallelReports}, without timing. */
class ParallelReportsTest {

  private static List<Integer> items(int n) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  /**
   * The results come back in the items' order although the last item finishes first: the first
   * item's work waits (on a latch, not a clock) until the last one's is done, which another
   * thread must do, so the completion order is the reverse of the item order at the ends.
   */
  @Test
  void resultsAreInItemOrderWhateverFinishesFirst() throws Exception {
    ExecutorService pool = ParallelReports.pool(3, "test-parallel");
    try {
      int n = 10 * ParallelReports.CHUNK + 3;
      CountDownLatch lastDone = new CountDownLatch(1);
      List<Integer> finished = java.util.Collections.synchronizedList(new ArrayList<>());
      List<String> out = ParallelReports.on(pool, 4).map(items(n), i -> {
        if (i == 0) {
          try {
            lastDone.await();
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        }
        finished.add(i);
        if (i == n - 1) {
          lastDone.countDown();
        }
        return "r" + i;
      });
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        expected.add("r" + i);
      }
      assertEquals(expected, out);
      assertEquals(n, finished.size());
      // the premise: the last item finished before the first
      org.junit.jupiter.api.Assertions.assertTrue(finished.indexOf(n - 1) < finished.indexOf(0));
    } finally {
      pool.shutdownNow();
    }
  }

  /** At most {@code threads} threads work on one call: the caller and threads - 1 tasks. */
  @Test
  void usesAtMostTheConfiguredThreads() {
    ExecutorService pool = ParallelReports.pool(8, "test-parallel");
    try {
      Set<Thread> seen = ConcurrentHashMap.newKeySet();
      ParallelReports.on(pool, 3).map(items(50 * ParallelReports.CHUNK), i -> {
        seen.add(Thread.currentThread());
        return i;
      });
      org.junit.jupiter.api.Assertions.assertTrue(seen.size() <= 3, seen.toString());
      Set<Thread> one = ConcurrentHashMap.newKeySet();
      ParallelReports.sequential().map(items(100), i -> one.add(Thread.currentThread()));
      assertEquals(Set.of(Thread.currentThread()), one);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * An executor that never runs its tasks (saturated) or refuses them leaves the work to the
   * caller: the call still ends with every result.
   */
  @Test
  void aSaturatedOrRefusingExecutorLeavesTheWorkToTheCaller() {
    List<Runnable> neverRun = new ArrayList<>();
    Executor saturated = neverRun::add;
    Executor refusing = r -> {
      throw new RejectedExecutionException("full");
    };
    for (Executor e : new Executor[] {saturated, refusing}) {
      List<Integer> out = ParallelReports.on(e, 4).map(items(7 * ParallelReports.CHUNK),
          i -> i * 2);
      for (int i = 0; i < out.size(); i++) {
        assertEquals(2 * i, out.get(i));
      }
    }
    org.junit.jupiter.api.Assertions.assertFalse(neverRun.isEmpty());
    neverRun.forEach(Runnable::run); // started late: finds no chunk left and ends
  }

  /** A RuntimeException of the work reaches the caller after the other chunks ended. */
  @Test
  void anExceptionOfTheWorkIsRethrown() {
    ExecutorService pool = ParallelReports.pool(2, "test-parallel");
    try {
      IllegalStateException boom = new IllegalStateException("boom");
      IllegalStateException thrown = assertThrows(IllegalStateException.class,
          () -> ParallelReports.on(pool, 3).map(items(20 * ParallelReports.CHUNK), i -> {
            if (i == 77) {
              throw boom;
            }
            return i;
          }));
      assertSame(boom, thrown);
      assertThrows(IllegalArgumentException.class, () -> ParallelReports.on(pool, 0));
    } finally {
      pool.shutdownNow();
    }
  }
}
