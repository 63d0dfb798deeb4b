package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.List;

import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.StaticEntry;

/**
 * The messages that put one entry on a switch or take it off, as {@link Pusher} ops, and which of a
 * push's refusals count: plain functions of the entries and the switch's {@link Translator}.
 */
final class EntryMessages {

    private EntryMessages() {
    }

    /** Messages that put an entry on a switch (or replace its namesake in place). */
    static List<Pusher.Op> install(Translator t, StaticEntry entry) {
        List<Pusher.Op> ops = new ArrayList<>();
        if (entry instanceof FlowEntry f) {
            ops.add(new Pusher.Op(f.name(), "flow " + f.name(), t.flowAdd(f), false));
        } else if (entry instanceof GroupEntry g) {
            // Whether the group exists is not known here: ADD creates it, MODIFY updates it; one of them fails, as expected.
            ops.add(new Pusher.Op(g.name(), "group " + g.groupId() + " add", t.groupAdd(g), true));
            ops.add(new Pusher.Op(g.name(), "group " + g.groupId(), t.groupModify(g), false));
        } else if (entry instanceof MeterEntry m) {
            ops.add(new Pusher.Op(m.name(), "meter " + m.meterId() + " add", t.meterAdd(m), true));
            ops.add(new Pusher.Op(m.name(), "meter " + m.meterId(), t.meterModify(m), false));
        }
        return ops;
    }

    /** Messages that remove {@code old} from a switch, unless {@code replacement} (null: none) took its place there. */
    static List<Pusher.Op> retire(Translator t, StaticEntry old, StaticEntry replacement) {
        List<Pusher.Op> ops = new ArrayList<>();
        if (old instanceof FlowEntry f) {
            boolean samePlace = replacement instanceof FlowEntry r && FlowShape.of(t.flowAdd(r)).key()
                    .equals(FlowShape.of(t.flowAdd(f)).key());
            if (!samePlace) {
                ops.add(new Pusher.Op(null, "removal of flow " + f.name(), t.flowDelete(f), false));
            }
        } else if (old instanceof GroupEntry g) {
            if (!(replacement instanceof GroupEntry r && r.groupId() == g.groupId())) {
                ops.add(new Pusher.Op(null, "removal of group " + g.groupId(), t.groupDelete(g.groupId()), false));
            }
        } else if (old instanceof MeterEntry m) {
            if (!(replacement instanceof MeterEntry r && r.meterId() == m.meterId())) {
                ops.add(new Pusher.Op(null, "removal of meter " + m.meterId(), t.meterDelete(m.meterId()), false));
            }
        }
        return ops;
    }

    /** The refusals that say the push failed, described (an op that may fail, such as a group ADD, does not count). */
    static List<String> errors(List<Pusher.Refusal> refusals) {
        List<String> errors = new ArrayList<>();
        for (Pusher.Refusal r : refusals) {
            if (!r.op().mayFail()) {
                errors.add(r.describe());
            }
        }
        return errors;
    }
}
