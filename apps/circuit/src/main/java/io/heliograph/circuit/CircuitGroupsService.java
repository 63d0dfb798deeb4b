package io.heliograph.circuit;

import java.util.OptionalInt;

import io.heliograph.circuit.engine.CircuitGroups;

/** Which host is in which rack (rack r is circuit switch port r). */
public interface CircuitGroupsService {

    CircuitGroups groups();

    /** The rack of a host address, empty when it is in no group. */
    OptionalInt rackOf(String host);
}
