package io.heliograph.virtue.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.heliograph.virtue.engine.InvalidInputException;
import io.heliograph.virtue.engine.Measurements;
import io.heliograph.virtue.engine.Problem;

/**
 * An optimisation's input as JSON, in the shared store and in a REST request that brings its own:
 * {@code {"cpu": {vm: cycles/s}, "nic": {vm: {"sent": b/s, "received": b/s}},
 * "traffic": [{"source": vm, "destination": vm, "bitsPerSecond": b/s}]}}. Reading checks every figure
 * and names the JSON path of each bad one; whether the VMs exist is the engine's check.
 */
final class MeasurementsJson {

    private MeasurementsJson() {
    }

    /** Figures rounded to whole bits and cycles per second: the store's JSON takes whole numbers. */
    static Map<String, Object> write(Measurements measurements) {
        Map<String, Object> json = new LinkedHashMap<>();
        Map<String, Object> cpu = new LinkedHashMap<>();
        measurements.cpu().forEach((vm, cycles) -> cpu.put(vm, Math.round(cycles)));
        json.put("cpu", cpu);
        Map<String, Object> nic = new LinkedHashMap<>();
        measurements.nic().forEach((vm, n) -> nic.put(vm, Map.of("sent", Math.round(n.sentBitsPerSecond()),
                "received", Math.round(n.receivedBitsPerSecond()))));
        json.put("nic", nic);
        List<Object> traffic = new ArrayList<>();
        for (Measurements.Flow flow : measurements.traffic()) {
            traffic.add(Map.of("source", flow.source(), "destination", flow.destination(),
                    "bitsPerSecond", Math.round(flow.bitsPerSecond())));
        }
        json.put("traffic", traffic);
        return json;
    }

    /** The measurements a JSON value describes; {@link InvalidInputException} with every problem's path. */
    static Measurements read(Object json, String path) {
        List<Problem> problems = new ArrayList<>();
        Measurements.Builder builder = Measurements.builder();
        if (!(json instanceof Map<?, ?> object)) {
            throw new InvalidInputException(List.of(new Problem(path, "must be an object with cpu, nic and traffic")));
        }
        for (Object member : object.keySet()) {
            if (!List.of("cpu", "nic", "traffic").contains(member)) {
                problems.add(new Problem(path + "." + member, "unknown member (cpu, nic, traffic)"));
            }
        }
        if (object.get("cpu") instanceof Map<?, ?> cpu) {
            cpu.forEach((vm, value) -> {
                Double cycles = figure(value, path + ".cpu." + vm, problems);
                if (cycles != null) {
                    builder.cpu(String.valueOf(vm), cycles);
                }
            });
        } else if (object.get("cpu") != null) {
            problems.add(new Problem(path + ".cpu", "must be an object of VM id to cycles per second"));
        }
        if (object.get("nic") instanceof Map<?, ?> nic) {
            nic.forEach((vm, value) -> {
                String at = path + ".nic." + vm;
                if (value instanceof Map<?, ?> rates) {
                    Double sent = figure(rates.get("sent"), at + ".sent", problems);
                    Double received = figure(rates.get("received"), at + ".received", problems);
                    if (sent != null && received != null) {
                        builder.nic(String.valueOf(vm), sent, received);
                    }
                } else {
                    problems.add(new Problem(at, "must be {\"sent\": b/s, \"received\": b/s}"));
                }
            });
        } else if (object.get("nic") != null) {
            problems.add(new Problem(path + ".nic", "must be an object of VM id to {sent, received}"));
        }
        if (object.get("traffic") instanceof List<?> traffic) {
            for (int i = 0; i < traffic.size(); i++) {
                String at = path + ".traffic[" + i + "]";
                if (traffic.get(i) instanceof Map<?, ?> flow && flow.get("source") instanceof String source
                        && flow.get("destination") instanceof String destination) {
                    Double rate = figure(flow.get("bitsPerSecond"), at + ".bitsPerSecond", problems);
                    if (rate != null) {
                        builder.traffic(source, destination, rate);
                    }
                } else {
                    problems.add(new Problem(at, "must be {\"source\": vm, \"destination\": vm, \"bitsPerSecond\": b/s}"));
                }
            }
        } else if (object.get("traffic") != null) {
            problems.add(new Problem(path + ".traffic", "must be an array of flows"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(List.of(new Problem(path, e.getMessage())));
        }
    }

    private static Double figure(Object value, String path, List<Problem> problems) {
        if (value instanceof Number n && Double.isFinite(n.doubleValue()) && n.doubleValue() >= 0) {
            return n.doubleValue();
        }
        problems.add(new Problem(path, "must be a number at least 0, not " + value));
        return null;
    }
}
