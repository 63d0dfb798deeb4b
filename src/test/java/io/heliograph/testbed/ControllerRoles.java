package io.heliograph.testbed;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the switches themselves say about their controllers: for every bridge, each controller
 * target's role (master, slave or other) while it is connected, from two {@code ovs-vsctl} calls for
 * the whole instance. This is the ground truth a cluster test checks the controllers against.
 *
 * @param roles bridge name -> controller target (e.g. {@code tcp:198.18.0.1:6653}) -> role; a target
 *              that is not connected has no entry
 */
public record ControllerRoles(Map<String, Map<String, String>> roles) {

    public static ControllerRoles read(OvsInstance ovs) {
        Map<String, String[]> controllers = new HashMap<>(); // uuid -> target, role, connected
        for (String line : lines(ovs.vsctl("--format=csv", "--data=bare", "--no-headings",
                "--columns=_uuid,target,role,is_connected", "list", "controller").stdout())) {
            String[] f = line.split(",", -1);
            if (f.length == 4) {
                controllers.put(f[0], f);
            }
        }
        Map<String, Map<String, String>> roles = new TreeMap<>();
        for (String line : lines(ovs.vsctl("--format=csv", "--data=bare", "--no-headings", "--columns=name,controller",
                "list", "bridge").stdout())) {
            String[] f = line.split(",", -1);
            if (f.length != 2) {
                continue;
            }
            Map<String, String> byTarget = new TreeMap<>();
            for (String uuid : f[1].trim().split("\\s+")) {
                String[] c = controllers.get(uuid);
                if (c != null && "true".equals(c[3])) {
                    byTarget.put(c[1], c[2]);
                }
            }
            roles.put(f[0], byTarget);
        }
        return new ControllerRoles(roles);
    }

    /** The target that is master of a bridge, or null. */
    public String masterOf(String bridge) {
        List<String> masters = roles.getOrDefault(bridge, Map.of()).entrySet().stream()
                .filter(e -> e.getValue().equals("master")).map(Map.Entry::getKey).toList();
        return masters.size() == 1 ? masters.get(0) : null;
    }

    /** Whether every bridge has {@code connected} connected controllers, exactly one master and the rest slaves. */
    public boolean oneMasterEach(int connected) {
        return !roles.isEmpty() && roles.values().stream().allMatch(r -> r.size() == connected
                && r.values().stream().filter("master"::equals).count() == 1
                && r.values().stream().filter("slave"::equals).count() == connected - 1);
    }

    /** Target -> how many bridges it masters. */
    public Map<String, Integer> mastersByTarget() {
        Map<String, Integer> counts = new TreeMap<>();
        for (String bridge : roles.keySet()) {
            String master = masterOf(bridge);
            if (master != null) {
                counts.merge(master, 1, Integer::sum);
            }
        }
        return counts;
    }

    private static List<String> lines(String text) {
        return text.lines().map(String::trim).filter(l -> !l.isEmpty()).toList();
    }
}
