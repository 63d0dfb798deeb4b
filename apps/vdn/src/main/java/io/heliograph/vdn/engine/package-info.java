/**
 * VDN's engine (issue 24; spec {@code etalon-vdx-vdn.md} §4): the CDN's overlay
 * ({@link io.heliograph.vdn.engine.Topology}: sources, reflectors, edge clusters and client groups with
 * capacities and costs), the video objects and requests of one decision
 * ({@link io.heliograph.vdn.engine.Problem}), the distribution trees a decision makes
 * ({@link io.heliograph.vdn.engine.Distribution}) and the optimisers that make them
 * ({@link io.heliograph.vdn.engine.TreeOptimiser}). Plain Java with no OSGi, Netty or Spring types, so the
 * live app, the local agent, the simulator and the benchmarks run the same code.
 */
package io.heliograph.vdn.engine;
