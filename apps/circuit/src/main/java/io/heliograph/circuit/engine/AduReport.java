package io.heliograph.circuit.engine;

import io.heliograph.core.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One report of libADU (spec §2.7): {@code bytes} more the application wrote to a flow (an ADU's size,
 * from 0 to {@link #MAX_BYTES}), or that the flow closed ({@code closed}, no bytes), its outstanding
 * demand to be removed. JSON, a batch being an array of them:
 * {@code {"flow": {"src": "10.0.0.1", "srcPort": 40000, "dst": "10.0.1.1", "dstPort": 5001, "protocol": 6},
 * "bytes": 1000000}} or {@code {"flow": {...}, "closed": true}}.
 */
public record AduReport(FiveTuple flow, long bytes, boolean closed) {

    /** 1 TB: no single write is larger; a larger size is a broken or hostile reporter. */
    public static final long MAX_BYTES = 1_000_000_000_000L;

    private static final Set<String> MEMBERS = Set.of("flow", "bytes", "closed");

    private static final Set<String> FLOW_MEMBERS = Set.of("src", "srcPort", "dst", "dstPort", "protocol");

    public AduReport {
        if (flow == null) {
            throw new IllegalArgumentException("flow: missing");
        }
        if (bytes < 0 || bytes > MAX_BYTES) {
            throw new IllegalArgumentException("bytes must be from 0 to " + MAX_BYTES + " (1 TB), not " + bytes);
        }
        if (closed && bytes != 0) {
            throw new IllegalArgumentException("a report has bytes or closed, not both");
        }
    }

    public static AduReport written(FiveTuple flow, long bytes) {
        return new AduReport(flow, bytes, false);
    }

    public static AduReport closed(FiveTuple flow) {
        return new AduReport(flow, 0, true);
    }

    /** A batch from JSON plain values (an array of reports); the first problem by JSON path ({@code $[3].bytes}). */
    public static List<AduReport> fromJson(Object json) {
        List<?> list = JsonPath.list(json, "$");
        List<AduReport> reports = new ArrayList<>();
        for (int k = 0; k < list.size(); k++) {
            String path = "$[" + k + "]";
            Map<String, Object> report = JsonPath.object(list.get(k), path, MEMBERS);
            Map<String, Object> flow = JsonPath.object(JsonPath.required(report, "flow", path), path + ".flow", FLOW_MEMBERS);
            String flowPath = path + ".flow";
            FiveTuple tuple = new FiveTuple(
                    JsonPath.text(JsonPath.required(flow, "src", flowPath), flowPath + ".src"),
                    (int) JsonPath.whole(JsonPath.required(flow, "srcPort", flowPath), flowPath + ".srcPort", 0, 65535),
                    JsonPath.text(JsonPath.required(flow, "dst", flowPath), flowPath + ".dst"),
                    (int) JsonPath.whole(JsonPath.required(flow, "dstPort", flowPath), flowPath + ".dstPort", 0, 65535),
                    (int) JsonPath.whole(JsonPath.required(flow, "protocol", flowPath), flowPath + ".protocol", 0, 255));
            boolean closed = report.containsKey("closed") && JsonPath.bool(report.get("closed"), path + ".closed");
            if (closed == report.containsKey("bytes")) {
                throw JsonPath.problem(path, "a report has either \"bytes\" or \"closed\": true");
            }
            reports.add(closed ? closed(tuple)
                    : written(tuple, JsonPath.whole(report.get("bytes"), path + ".bytes", 0, MAX_BYTES)));
        }
        return reports;
    }
}
