package io.heliograph.cluster.internal;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

import io.heliograph.core.cluster.ClusterInstance;

/**
 * An instance's membership node, {@code instances/<id>}: {@code {id, openflowAddress, httpAddress,
 * version, started}} as JSON, {@code started} in ISO-8601.
 */
final class InstanceRecord {

    private InstanceRecord() {
    }

    static byte[] write(ClusterInstance instance) {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put("id", instance.id());
        members.put("openflowAddress", instance.openflowAddress());
        members.put("httpAddress", instance.httpAddress());
        members.put("version", instance.version());
        members.put("started", instance.started().toString());
        return FlatJson.write(members);
    }

    /** The instance of node {@code id}; IllegalArgumentException naming the node if its data is bad. */
    static ClusterInstance read(String id, byte[] data) {
        try {
            Map<String, Object> members = FlatJson.read(data);
            return new ClusterInstance(id, string(members, "openflowAddress"), string(members, "httpAddress"),
                    string(members, "version"), Instant.parse(string(members, "started")));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new IllegalArgumentException("membership node of instance '" + id + "': " + e.getMessage(), e);
        }
    }

    private static String string(Map<String, Object> members, String name) {
        Object value = members.get(name);
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException("no string '" + name + "'");
        }
        return s;
    }
}
