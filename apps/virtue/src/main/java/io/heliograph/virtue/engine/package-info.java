/**
 * Virtue's placement engine (issue 21; spec {@code beacon-virtue.md} §2.4 and §3): the Experiment
 * Description File ({@link io.heliograph.virtue.engine.Edf}, {@link io.heliograph.virtue.engine.EdfFormat}),
 * a run's {@link io.heliograph.virtue.engine.Measurements}, the utilisation estimates of §3.5
 * ({@link io.heliograph.virtue.engine.Utilisations}) and the thesis's algorithms behind
 * {@link io.heliograph.virtue.engine.PlacementAlgorithm}. Plain Java with no OSGi, Netty or Spring types,
 * so the live app, the simulator and the benchmarks run the same code.
 */
package io.heliograph.virtue.engine;
