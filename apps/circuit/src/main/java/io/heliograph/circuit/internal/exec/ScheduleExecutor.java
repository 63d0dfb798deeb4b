package io.heliograph.circuit.internal.exec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.circuit.engine.WeekPlan;
import io.heliograph.core.OFSwitch;

/**
 * STUB: replaced by the circuit-exec branch (its real ScheduleExecutor, which drives the circuit switch
 * and the ToRs). This stub only counts the weeks it is handed, so the app's wiring can be tested.
 */
public final class ScheduleExecutor implements AutoCloseable {

    private final Fabric fabric;
    private final Function<DatapathId, OFSwitch> switches;
    private final long timeScale;
    private long weeks;
    private long lastStart;
    private boolean closed;

    public ScheduleExecutor(Fabric fabric, Function<DatapathId, OFSwitch> switches, long timeScale) {
        this.fabric = fabric;
        this.switches = switches;
        this.timeScale = timeScale;
    }

    public synchronized void run(WeekPlan week, long weekStartEpochNanos) {
        if (!closed) {
            weeks++;
            lastStart = weekStartEpochNanos;
        }
    }

    public synchronized Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("stub", true);
        status.put("circuitSwitch", fabric.circuitSwitch().toString());
        status.put("circuitSwitchConnected", switches.apply(fabric.circuitSwitch()) != null);
        status.put("timeScale", timeScale);
        status.put("weeks", weeks);
        status.put("lastWeekStartEpochNanos", lastStart);
        status.put("closed", closed);
        return status;
    }

    @Override
    public synchronized void close() {
        closed = true;
    }
}
