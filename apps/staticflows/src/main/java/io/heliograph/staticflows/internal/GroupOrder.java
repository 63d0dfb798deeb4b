package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.heliograph.staticflows.GroupEntry;

/** Orders groups so that a group comes after the groups its buckets forward to or watch. */
final class GroupOrder {

    private GroupOrder() {
    }

    static List<GroupEntry> sort(List<GroupEntry> groups) {
        Map<Long, GroupEntry> byId = new HashMap<>();
        groups.forEach(g -> byId.put(g.groupId(), g));
        List<GroupEntry> out = new ArrayList<>();
        Set<Long> done = new HashSet<>();
        Set<Long> visiting = new HashSet<>();
        for (GroupEntry g : groups) {
            visit(g, byId, done, visiting, out);
        }
        return out;
    }

    /** Which groups a group depends on. */
    static Set<Long> dependencies(GroupEntry g) {
        Set<Long> ids = new HashSet<>();
        for (GroupEntry.Bucket b : g.buckets()) {
            ids.addAll(Reconciler.groupsUsed(b.actions()));
            if (b.watchGroup() != null) {
                ids.add(b.watchGroup());
            }
        }
        return ids;
    }

    private static void visit(GroupEntry g, Map<Long, GroupEntry> byId, Set<Long> done, Set<Long> visiting,
            List<GroupEntry> out) {
        if (done.contains(g.groupId()) || !visiting.add(g.groupId())) {
            return; // a cycle is refused by the switch; order does not matter then
        }
        for (Long dep : dependencies(g)) {
            GroupEntry d = byId.get(dep);
            if (d != null) {
                visit(d, byId, done, visiting, out);
            }
        }
        visiting.remove(g.groupId());
        done.add(g.groupId());
        out.add(g);
    }
}
