/**
 * Virtue's measurement database (issue 22): plain JDBC, no OSGi or Spring types, so it is unit-tested on
 * its own. {@link io.heliograph.virtue.store.VirtueDatabase} opens the embedded H2 database in the data
 * directory, or PostgreSQL when a JDBC URL is configured, and brings its schema up to date with
 * {@link io.heliograph.virtue.store.Migrations}; {@link io.heliograph.virtue.store.Experiments},
 * {@link io.heliograph.virtue.store.Records} and {@link io.heliograph.virtue.store.Queries} read and write it;
 * the {@link io.heliograph.virtue.store.Recorder} writes sampling rounds and host reports behind the
 * sampler's back, keeping them while the database is unreachable.
 */
package io.heliograph.virtue.store;
