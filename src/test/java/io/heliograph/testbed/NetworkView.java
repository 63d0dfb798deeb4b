package io.heliograph.testbed;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a running controller knows of the network, read from its console's {@code links} and {@code hosts}. */
public final class NetworkView {

    private static final Duration COMMAND = Duration.ofSeconds(20);
    /** "00:00:00:00:00:00:00:01/2         -> 00:00:00:00:00:00:00:02/2  age ..." */
    private static final Pattern LINK = Pattern.compile("^(?:g! )?(\\S+/\\d+)\\s+->\\s+(\\S+/\\d+)\\s+age",
            Pattern.MULTILINE);
    private static final Pattern LINK_SUMMARY = Pattern.compile("\\d+ switches, \\d+ links .*");
    /** "02:00:00:00:00:01  ip 10.0.0.1  at 00:00:00:00:00:00:00:01/1  seen 0s ago" */
    private static final Pattern HOST = Pattern.compile("^(\\S+)(?: vlan \\d+)?\\s+ip (\\S+)\\s+at (\\S+)\\s+seen",
            Pattern.MULTILINE);
    private static final Pattern HOSTS_DONE = Pattern.compile("(no hosts|\\d+ hosts?\\n(?:.*\\n)*?.*seen.*)\\ng! ");

    private NetworkView() {
    }

    /**
     * An app's console command and what the console printed after it once {@code answer} appears. A
     * controller just (re)started runs its apps a moment after its health is UP, so while Gogo answers
     * that the command is not found, this throws {@link IllegalStateException}, which {@link Poll} takes
     * as a probe to retry.
     */
    private static String appCommand(ControllerProcess controller, String command, Pattern answer) {
        String notYet = "Command not found: " + command;
        String output = controller.console(command, Pattern.compile(answer.pattern() + "|" + Pattern.quote(notYet)),
                COMMAND);
        if (output.contains(notYet)) {
            throw new IllegalStateException("the " + command + " console command is not registered yet");
        }
        return output;
    }

    /** The directed links the controller's topology lists now, as "src -> dst" (see {@link Bridge#dpid}). */
    public static Set<String> links(ControllerProcess controller) {
        String output = appCommand(controller, "links", LINK_SUMMARY);
        Set<String> links = new TreeSet<>();
        Matcher m = LINK.matcher(output);
        while (m.find()) {
            links.add(m.group(1) + " -> " + m.group(2));
        }
        return links;
    }

    /** The hosts the controller's device tracking lists now: MAC -> "ip at dpid/port". */
    public static Map<String, String> hosts(ControllerProcess controller) {
        String output = appCommand(controller, "hosts", HOSTS_DONE);
        Matcher done = HOSTS_DONE.matcher(output);
        if (!done.find()) {
            throw new IllegalStateException("no complete host list in the console output: " + output);
        }
        Map<String, String> hosts = new TreeMap<>();
        Matcher m = HOST.matcher(done.group(1));
        while (m.find()) {
            hosts.put(m.group(1), m.group(2) + " at " + m.group(3));
        }
        return hosts;
    }

    /** How the controller lists {@code host} when it is plugged into {@code port} of {@code bridge}. */
    public static String attachment(Host host, Bridge bridge, int port) {
        return host.ip() + " at " + bridge.dpid() + "/" + port;
    }
}
