/**
 * Circuit scheduling for reconfigurable datacenter networks (issue 23; spec {@code etalon-vdx-vdn.md}
 * §2.1 to §2.8): the network's {@link io.heliograph.circuit.engine.CircuitParameters}, a week's
 * {@link io.heliograph.circuit.engine.Schedule} of days (perfect matchings with durations) and nights,
 * the schedulers behind {@link io.heliograph.circuit.engine.Scheduler} (Solstice, the round-robin
 * all-to-all rotation, and the operator's {@link io.heliograph.circuit.engine.FixedScheduler}), the
 * week's documented JSON type ({@link io.heliograph.circuit.engine.ScheduleJson}), demand estimation
 * behind {@link io.heliograph.circuit.engine.DemandEstimator} (VOQ occupancy and ADUs), the
 * {@link io.heliograph.circuit.engine.CircuitGroups} and reHDFS's
 * {@link io.heliograph.circuit.engine.ReplicaPlacement}. Plain Java with no OSGi, Netty or Spring
 * types, so the live app, the simulator and the benchmarks run the same code; JSON goes through core's
 * one codec, {@code io.heliograph.core.json.Json}.
 */
package io.heliograph.circuit.engine;
