package org.priodp.aggregator.datastore;

import java.util.Objects;
import org.priodp.noise.ledger.LedgerEntry;

/**
 * One row of a task's privacy ledger (issue 25): the batch whose noise was drawn, its
 * {@link LedgerEntry} (span, group size, per-report and per-unit guarantee, when drawn), the
 * sampler that drew it and the task's DP settings as canonical text at that time.
 *
 * @param batch the batch's bucket identifier (unique per task: a batch costs once)
 * @param entry the release as the ledger's arithmetic sees it
 * @param sampler the sampler for people, e.g. "fixed-work discrete Laplace, delta 2^-64"
 * @param settings the task's canonical DP settings text
 */
public record LedgerRecord(BatchIdentifier batch, LedgerEntry entry, String sampler, String settings) {

  /** Longest accepted sampler text, in characters. */
  public static final int MAX_SAMPLER = 200;

  /** Longest accepted settings text, in characters. */
  public static final int MAX_SETTINGS = 2000;

  /** Longest accepted batch text ({@link LedgerEntry#batch()}), in characters. */
  public static final int MAX_BATCH_TEXT = 200;

  /**
   * Validates that every part is present and the texts fit their columns.
   *
   * @throws IllegalArgumentException for a text too long
   */
  public LedgerRecord {
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(entry, "entry");
    Objects.requireNonNull(sampler, "sampler");
    Objects.requireNonNull(settings, "settings");
    check("sampler", sampler, MAX_SAMPLER);
    check("settings", settings, MAX_SETTINGS);
    check("batch text", entry.batch(), MAX_BATCH_TEXT);
  }

  private static void check(String what, String text, int max) {
    if (text.length() > max) {
      throw new IllegalArgumentException(what + " has " + text.length() + " characters; at most " + max);
    }
  }
}
