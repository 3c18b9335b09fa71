/**
 * The aggregator's datastore port (DAP-18 "Distributed Systems and Synchronization Concerns"):
 * {@link org.priodp.aggregator.datastore.Datastore} with its one transactional entry point, the
 * task transaction, whose repositories hold one aggregate each (client reports, aggregation jobs,
 * batch buckets, releases, aggregate-share resources, collection jobs, retention), the few
 * operations that span tasks (HPKE keys, job leases), and the stored records. It names no JDBC
 * type; {@code org.priodp.aggregator.datastore.jdbc} implements it on SQLite and PostgreSQL.
 */
package org.priodp.aggregator.datastore;
