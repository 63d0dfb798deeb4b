/**
 * Circuit scheduling for reconfigurable datacenter networks (issue 23; spec {@code etalon-vdx-vdn.md}
 * §2.1 to §2.3): the network's {@link io.heliograph.circuit.engine.CircuitParameters}, a week's
 * {@link io.heliograph.circuit.engine.Schedule} of days (perfect matchings with durations) and nights,
 * and the schedulers behind {@link io.heliograph.circuit.engine.Scheduler}: Solstice and the round-robin
 * all-to-all rotation. Plain Java with no OSGi, Netty or Spring types, so the live app, the simulator
 * and the benchmarks run the same code.
 */
package io.heliograph.circuit.engine;
