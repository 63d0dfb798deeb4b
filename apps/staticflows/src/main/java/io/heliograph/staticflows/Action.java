package io.heliograph.staticflows;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.projectfloodlight.openflow.types.OFPort;

/**
 * A version-neutral action. The text form is Floodlight's static entry pusher syntax
 * ({@code output=2}, {@code set_field=eth_dst->00:00:00:00:00:01}, {@code push_vlan=0x8100},
 * {@code pop_vlan}, {@code group=5}, {@code set_queue=1}, {@code dec_nw_ttl}, ...), so scripts
 * written for Floodlight keep working; a list is comma-separated.
 */
public sealed interface Action {

    /** OFPCML_NO_BUFFER: send the whole packet to the controller. */
    int NO_BUFFER = 0xffff;

    record Output(OFPort port, int maxLen) implements Action {
        public Output {
            Objects.requireNonNull(port, "port");
        }

        @Override
        public String toString() {
            String p = Ports.format(port);
            return port.equals(OFPort.CONTROLLER) && maxLen != NO_BUFFER ? "output=" + p + ":" + maxLen : "output=" + p;
        }
    }

    record Group(long groupId) implements Action {
        @Override
        public String toString() {
            return "group=" + groupId;
        }
    }

    /** Sets a header field; {@code field} uses the match field names (eth_dst, ipv4_src, ...). */
    record SetField(String field, String value) implements Action {
        public SetField {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toString() {
            return "set_field=" + field + "->" + value;
        }
    }

    record PushVlan(int ethertype) implements Action {
        @Override
        public String toString() {
            return "push_vlan=0x" + Integer.toHexString(ethertype);
        }
    }

    record PopVlan() implements Action {
        @Override
        public String toString() {
            return "pop_vlan";
        }
    }

    record PushMpls(int ethertype) implements Action {
        @Override
        public String toString() {
            return "push_mpls=0x" + Integer.toHexString(ethertype);
        }
    }

    /** Pops the outermost MPLS label; {@code ethertype} is the payload's type after the pop. */
    record PopMpls(int ethertype) implements Action {
        @Override
        public String toString() {
            return "pop_mpls=0x" + Integer.toHexString(ethertype);
        }
    }

    record SetQueue(long queueId) implements Action {
        @Override
        public String toString() {
            return "set_queue=" + queueId;
        }
    }

    record DecNwTtl() implements Action {
        @Override
        public String toString() {
            return "dec_nw_ttl";
        }
    }

    static Output output(OFPort port) {
        return new Output(port, port.equals(OFPort.CONTROLLER) ? NO_BUFFER : 0);
    }

    static Output output(int port) {
        return output(OFPort.of(port));
    }

    static SetField setField(String field, String value) {
        return new SetField(field, value);
    }

    /** Parses one action; the message of the exception names what is wrong. */
    static Action parse(String text) {
        String t = text.trim();
        int eq = t.indexOf('=');
        String verb = (eq < 0 ? t : t.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
        String arg = eq < 0 ? null : t.substring(eq + 1).trim();
        try {
            switch (verb) {
                case "output":
                    return parseOutput(need(verb, arg));
                case "group":
                    return new Group(Long.decode(need(verb, arg)));
                case "set_field": {
                    String a = need(verb, arg);
                    int arrow = a.indexOf("->");
                    if (arrow < 1) {
                        throw new IllegalArgumentException("set_field needs field->value, e.g. set_field=eth_dst->00:00:00:00:00:01");
                    }
                    return new SetField(a.substring(0, arrow).trim(), a.substring(arrow + 2).trim());
                }
                case "push_vlan":
                    return new PushVlan(arg == null ? 0x8100 : Integer.decode(arg));
                case "pop_vlan":
                case "strip_vlan":
                    return new PopVlan();
                case "push_mpls":
                    return new PushMpls(arg == null ? 0x8847 : Integer.decode(arg));
                case "pop_mpls":
                    return new PopMpls(Integer.decode(need(verb, arg)));
                case "set_queue":
                    return new SetQueue(Long.decode(need(verb, arg)));
                case "dec_nw_ttl":
                    return new DecNwTtl();
                default:
                    throw new IllegalArgumentException("unknown action '" + verb + "' (known: output, group, set_field, "
                            + "push_vlan, pop_vlan, push_mpls, pop_mpls, set_queue, dec_nw_ttl)");
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("action '" + t + "': '" + arg + "' is not a number");
        }
    }

    /** Parses a comma-separated list; empty text is the empty list (drop). */
    static List<Action> parseList(String text) {
        List<Action> actions = new ArrayList<>();
        if (text == null || text.isBlank() || text.trim().equalsIgnoreCase("drop")) {
            return actions;
        }
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                actions.add(parse(part));
            }
        }
        return actions;
    }

    static String format(List<Action> actions) {
        StringBuilder out = new StringBuilder();
        for (Action a : actions) {
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(a);
        }
        return out.toString();
    }

    private static String need(String verb, String arg) {
        if (arg == null || arg.isEmpty()) {
            throw new IllegalArgumentException("action " + verb + " needs a value (" + verb + "=...)");
        }
        return arg;
    }

    private static Output parseOutput(String arg) {
        int colon = arg.indexOf(':');
        if (colon > 0 && Ports.parse(arg.substring(0, colon)).equals(OFPort.CONTROLLER)) {
            return new Output(OFPort.CONTROLLER, Integer.decode(arg.substring(colon + 1).trim()));
        }
        return output(Ports.parse(arg));
    }
}
