package org.priodp.aggregator.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Runs one aggregation job's per-report CPU work (DAP-18 "Input Share Decryption" and "Input
 * Share Validation": the HPKE open and Prio3's {@code verify_init} of each report share) on a
 * bounded pool of threads, and hands the results back in report order, so that the job's
 * AggregationJobResp lists its VerifyResps in the order of the request's VerifyInits whatever
 * thread finished first. Only pure per-report work runs here: the durable part of a job (the
 * once-only checks, the batch buckets, the job's state) stays in the caller's one task
 * transaction, after {@link #map} returns.
 *
 * <p>The reports are cut into chunks of {@link #CHUNK}; the calling thread and up to {@code
 * threads - 1} tasks on the executor take chunks from one counter until none is left, so the
 * caller never waits for a task that has not started (a saturated executor only makes the job
 * run on fewer threads). A RuntimeException (or Error) of the work is rethrown by {@link #map}
 * after every started chunk ended; per-report failures are values of the work, not exceptions.
 * Thread-safe.
 */
public final class ParallelReports {
  /** How many consecutive reports one thread takes at a time. */
  static final int CHUNK = 16;

  private static final ParallelReports SEQUENTIAL = new ParallelReports(Runnable::run, 1);
  private static volatile ParallelReports shared;

  private final Executor executor;
  private final int threads;

  private ParallelReports(Executor executor, int threads) {
    this.executor = executor;
    this.threads = threads;
  }

  /** Runs every report on the calling thread. */
  public static ParallelReports sequential() {
    return SEQUENTIAL;
  }

  /**
   * Runs each job on up to {@code threads} threads: the caller and {@code threads - 1} tasks on
   * {@code executor}; throws IllegalArgumentException unless {@code threads >= 1}.
   */
  public static ParallelReports on(Executor executor, int threads) {
    Objects.requireNonNull(executor, "executor");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    return threads == 1 ? SEQUENTIAL : new ParallelReports(executor, threads);
  }

  /**
   * Returns the process's default: as many threads as the JVM has processors (or the system
   * property {@code priodp.verify.threads}), on a pool of daemon threads created on first use.
   */
  public static ParallelReports shared() {
    ParallelReports s = shared;
    if (s == null) {
      synchronized (ParallelReports.class) {
        s = shared;
        if (s == null) {
          int n = Integer.getInteger("priodp.verify.threads",
              Runtime.getRuntime().availableProcessors());
          s = n <= 1 ? SEQUENTIAL : on(pool(n - 1, "priodp-verify"), n);
          shared = s;
        }
      }
    }
    return s;
  }

  /** Returns a fixed pool of {@code size} daemon threads named {@code name-N}. */
  public static ExecutorService pool(int size, String name) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(size, r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /** Returns the most threads one job runs on. */
  public int threads() {
    return threads;
  }

  /**
   * Applies {@code work} to each item and returns the results in the items' order (the i-th
   * result is {@code work} of the i-th item).
   */
  public <T, R> List<R> map(List<T> items, Function<? super T, ? extends R> work) {
    Objects.requireNonNull(work, "work");
    List<T> in = List.copyOf(items);
    Object[] out = new Object[in.size()];
    int chunks = (in.size() + CHUNK - 1) / CHUNK;
    if (threads == 1 || chunks <= 1) {
      for (int i = 0; i < out.length; i++) {
        out[i] = work.apply(in.get(i));
      }
      return results(out);
    }
    AtomicInteger next = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(chunks);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Runnable taker = () -> {
      for (int c = next.getAndIncrement(); c < chunks; c = next.getAndIncrement()) {
        try {
          int end = Math.min(out.length, (c + 1) * CHUNK);
          for (int i = c * CHUNK; i < end; i++) {
            out[i] = work.apply(in.get(i));
          }
        } catch (RuntimeException | Error e) {
          failure.compareAndSet(null, e);
        } finally {
          done.countDown();
        }
      }
    };
    for (int t = 1; t < Math.min(threads, chunks); t++) {
      try {
        executor.execute(taker);
      } catch (RejectedExecutionException e) {
        break; // the caller takes the rest
      }
    }
    taker.run();
    boolean interrupted = false;
    while (true) {
      try {
        done.await(); // only chunks already taken by a running thread remain
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    Throwable f = failure.get();
    if (f instanceof RuntimeException r) {
      throw r;
    }
    if (f != null) {
      throw (Error) f;
    }
    return results(out);
  }

  @SuppressWarnings("unchecked")
  private static <R> List<R> results(Object[] out) {
    return (List<R>) Arrays.asList(out);
  }

  @Override
  public String toString() {
    return "ParallelReports[" + threads + " threads]";
  }
}
