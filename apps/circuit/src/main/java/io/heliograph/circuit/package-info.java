/**
 * The circuit app's services (issue 23), for other apps: the schedule in force and the next one
 * ({@link io.heliograph.circuit.CircuitScheduleService}), which host is in which rack
 * ({@link io.heliograph.circuit.CircuitGroupsService}) and reHDFS-style replica placement advice
 * ({@link io.heliograph.circuit.ReplicaPlacementService}). Registered while the app runs; they speak the
 * engine's types ({@code io.heliograph.circuit.engine}).
 */
package io.heliograph.circuit;
