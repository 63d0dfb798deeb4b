/**
 * Hybrid (hierarchical) control: a centre decides for every partition of the network with a global
 * view, and a local agent per partition may override the centre for a while, on slack capacity only,
 * when the centre's decision no longer fits what the agent sees or the centre has gone silent.
 *
 * <p>The centre publishes one {@link io.heliograph.core.hybrid.DecisionTable} per partition (its RIB)
 * under one version: inside the controller through the shared store
 * ({@link io.heliograph.core.hybrid.SharedDecisionTables}), to agents outside it as JSON
 * ({@link io.heliograph.core.hybrid.DecisionTableJson}). Each {@link io.heliograph.core.hybrid.Decision}
 * carries the {@link io.heliograph.core.hybrid.Evidence} it was based on. An agent merges the tables it
 * receives with its own decisions in a {@link io.heliograph.core.hybrid.HybridTable} (its FIB), which
 * keeps older versions as shadow tables, tells a stale central decision from a fresh one, and falls
 * back to local control when the centre is silent. VDN's live-video trees are the first user; the
 * shape is the app's own choice of decision value.
 *
 * <p>Plain Java: no OSGi, ZooKeeper or Jackson types in the signatures.
 */
package io.heliograph.core.hybrid;
