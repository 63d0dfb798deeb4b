package io.heliograph.cluster.internal;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import io.heliograph.core.cluster.ClusterInstance;
import io.heliograph.core.json.Json;

/**
 * An instance's membership node, {@code instances/<id>}: {@code {id, openflowAddress, httpAddress,
 * version, started, livenessAddress, sessionPassword}} as JSON, {@code started} in ISO-8601. The
 * last two let the others end the session of a process that died ({@link PeerWatch}): where its
 * {@link LivenessListener} is, and the password (Base64) of the session that made the node, the one
 * its {@code ephemeralOwner} names. Whoever may read the cluster's ZooKeeper may delete its nodes
 * anyway, so the password gives them nothing more.
 */
final class InstanceRecord {

    private InstanceRecord() {
    }

    /** Where a member's process can be watched and how to end its session; absent from older members' nodes. */
    record Liveness(String address, byte[] sessionPassword) {
    }

    static byte[] write(ClusterInstance instance, Liveness liveness) {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put("id", instance.id());
        members.put("openflowAddress", instance.openflowAddress());
        members.put("httpAddress", instance.httpAddress());
        members.put("version", instance.version());
        members.put("started", instance.started().toString());
        if (liveness != null) {
            members.put("livenessAddress", liveness.address());
            members.put("sessionPassword", Base64.getEncoder().encodeToString(liveness.sessionPassword()));
        }
        return Json.compact(members);
    }

    /** The instance of node {@code id}; IllegalArgumentException naming the node if its data is bad. */
    static ClusterInstance read(String id, byte[] data) {
        try {
            Map<String, Object> members = Json.flatObject(data);
            return new ClusterInstance(id, string(members, "openflowAddress"), string(members, "httpAddress"),
                    string(members, "version"), Instant.parse(string(members, "started")));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new IllegalArgumentException("membership node of instance '" + id + "': " + e.getMessage(), e);
        }
    }

    /** The member's liveness, or null when its node has none (or a bad one: then it is not watched). */
    static Liveness liveness(byte[] data) {
        try {
            Map<String, Object> members = Json.flatObject(data);
            if (members.get("livenessAddress") instanceof String address
                    && members.get("sessionPassword") instanceof String password) {
                ConnectString.checkHostPort("livenessAddress", address, address);
                return new Liveness(address, Base64.getDecoder().decode(password));
            }
        } catch (IllegalArgumentException e) {
            // not watched; read() reports a node that is bad as a whole
        }
        return null;
    }

    private static String string(Map<String, Object> members, String name) {
        Object value = members.get(name);
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException("no string '" + name + "'");
        }
        return s;
    }
}
