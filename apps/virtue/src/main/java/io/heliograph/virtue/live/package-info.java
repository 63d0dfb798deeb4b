/**
 * The live app's network side (issue 22; spec {@code beacon-virtue.md} §2.5): the static VLAN routes
 * that carry an experiment's EDF routes ({@link io.heliograph.virtue.live.VlanRouting},
 * {@link io.heliograph.virtue.live.RoutePlan}), and one sampling round of its link, traffic-matrix and
 * NIC rates read from the statistics app ({@link io.heliograph.virtue.live.NetworkSampler},
 * {@link io.heliograph.virtue.live.NetworkSample}). Plain Java with no OSGi, Netty or Spring types.
 */
package io.heliograph.virtue.live;
