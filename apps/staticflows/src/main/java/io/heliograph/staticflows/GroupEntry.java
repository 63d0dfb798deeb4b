package io.heliograph.staticflows;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

/** A static group (OpenFlow 1.1+): a type and its buckets. */
public record GroupEntry(DatapathId dpid, String name, long groupId, Type type, List<Bucket> buckets)
        implements StaticEntry {

    public GroupEntry {
        Objects.requireNonNull(dpid, "dpid");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        buckets = List.copyOf(buckets == null ? List.of() : buckets);
    }

    @Override
    public String kind() {
        return "group";
    }

    /** Group types with Floodlight's names. */
    public enum Type {
        ALL("all"), SELECT("select"), INDIRECT("indirect"), FAST_FAILOVER("fast_failover");

        private final String text;

        Type(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }

        public static Type parse(String s) {
            String t = s.trim().toLowerCase(Locale.ROOT);
            for (Type type : values()) {
                if (type.text.equals(t) || (type == FAST_FAILOVER && t.equals("ff"))) {
                    return type;
                }
            }
            throw new IllegalArgumentException("'" + s + "' is not a group type (all, select, indirect, fast_failover)");
        }
    }

    /**
     * A bucket.
     *
     * @param weight     for select groups (0 otherwise)
     * @param watchPort  for fast-failover groups: the port whose liveness selects the bucket, or null
     * @param watchGroup for fast-failover groups: the group whose liveness selects the bucket, or null
     */
    public record Bucket(int weight, OFPort watchPort, Long watchGroup, List<Action> actions) {
        public Bucket {
            actions = List.copyOf(actions == null ? List.of() : actions);
        }

        public static Bucket of(Action... actions) {
            return new Bucket(0, null, null, List.of(actions));
        }

        public static Bucket weighted(int weight, Action... actions) {
            return new Bucket(weight, null, null, List.of(actions));
        }

        public static Bucket watching(OFPort port, Action... actions) {
            return new Bucket(0, port, null, List.of(actions));
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder("[");
            if (weight != 0) {
                s.append("weight=").append(weight).append(' ');
            }
            if (watchPort != null) {
                s.append("watch_port=").append(Ports.format(watchPort)).append(' ');
            }
            if (watchGroup != null) {
                s.append("watch_group=").append(watchGroup).append(' ');
            }
            return s.append("actions=").append(actions.isEmpty() ? "drop" : Action.format(actions)).append(']').toString();
        }
    }

    @Override
    public String toString() {
        return "group " + name + " group_id=" + groupId + " type=" + type.text() + " buckets=" + buckets;
    }
}
