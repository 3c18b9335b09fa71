/**
 * Persistence of the aggregator (SQLite embedded, PostgreSQL for several replicas): batch buckets,
 * noised and released shares, the ranges of released batches, resources; per-task transactions
 * that make a release once-only across processes; forward-only migrations.
 */
package org.priodp.aggregator.datastore;
