package io.heliograph.circuit;

import java.util.Optional;

import io.heliograph.circuit.engine.CircuitParameters;

/** The circuit schedule: the week in force, the next one once computed, and the network they are for. */
public interface CircuitScheduleService {

    /** The week in force now; empty before the first week was computed. */
    Optional<ScheduleView> current();

    /** The week after it, computed during the current one; empty until it is. */
    Optional<ScheduleView> next();

    /** The racks, rates and week the schedules are made for (schedule time, microseconds). */
    CircuitParameters parameters();
}
