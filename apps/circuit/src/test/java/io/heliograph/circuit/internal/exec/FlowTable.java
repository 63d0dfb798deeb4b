package io.heliograph.circuit.internal.exec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import org.projectfloodlight.openflow.protocol.OFBarrierRequest;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDelete;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFFlowMod;
import org.projectfloodlight.openflow.protocol.OFFlowModifyStrict;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionApplyActions;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.testing.FakeSwitch;

/**
 * Table 0 of a {@link FakeSwitch}, emulated as Open vSwitch keeps it for the executor's flow-mods (add,
 * strict modify and delete filtered by cookie, cookie-masked delete of everything), with a barrier
 * answered at once. Every change and barrier is seen by {@code watcher}, which can check the table at
 * each step.
 */
final class FlowTable {

    record Key(int priority, Match match) {
    }

    record Entry(long cookie, int priority, Match match, int output) {
    }

    private final Map<Key, Entry> entries = new LinkedHashMap<>();
    private volatile Consumer<OFMessage> watcher = m -> { };
    private int barriers;

    static FlowTable on(FakeSwitch sw) {
        FlowTable table = new FlowTable();
        sw.onWrite(table::apply);
        sw.answerWith(request -> {
            if (request instanceof OFBarrierRequest) {
                table.barrier(request);
                return CompletableFuture.completedFuture(List.of(sw.getFactory().buildBarrierReply()
                        .setXid(request.getXid()).build()));
            }
            return CompletableFuture.failedFuture(new UnsupportedOperationException(request.getType().toString()));
        });
        return table;
    }

    FlowTable watch(Consumer<OFMessage> watcher) {
        this.watcher = watcher;
        return this;
    }

    private void barrier(OFMessage request) {
        synchronized (this) {
            barriers++;
        }
        watcher.accept(request);
    }

    synchronized int barriers() {
        return barriers;
    }

    /** Puts an entry as another app would have. */
    synchronized void put(long cookie, int priority, Match match, int output) {
        entries.put(new Key(priority, match), new Entry(cookie, priority, match, output));
    }

    synchronized List<Entry> entries() {
        return new ArrayList<>(entries.values());
    }

    synchronized void apply(OFMessage message) {
        if (message instanceof OFFlowMod mod) {
            Key key = new Key(mod.getPriority(), mod.getMatch());
            long cookie = mod.getCookie().getValue();
            if (mod instanceof OFFlowAdd) {
                entries.put(key, new Entry(cookie, mod.getPriority(), mod.getMatch(), output(mod)));
            } else if (mod instanceof OFFlowModifyStrict) {
                Entry e = entries.get(key);
                if (e != null && masked(e.cookie(), mod)) {
                    entries.put(key, new Entry(e.cookie(), e.priority(), e.match(), output(mod)));
                }
            } else if (mod instanceof OFFlowDeleteStrict) {
                Entry e = entries.get(key);
                if (e != null && masked(e.cookie(), mod)) {
                    entries.remove(key);
                }
            } else if (mod instanceof OFFlowDelete) {
                if (!mod.getMatch().getMatchFields().iterator().hasNext()) {
                    entries.values().removeIf(e -> masked(e.cookie(), mod));
                } else {
                    throw new AssertionError("the executor deletes non-strictly only everything of a cookie: " + mod);
                }
            } else {
                throw new AssertionError("unexpected flow-mod " + mod);
            }
        }
        watcher.accept(message);
    }

    private static boolean masked(long cookie, OFFlowMod mod) {
        long mask = mod.getCookieMask() == null ? 0 : mod.getCookieMask().getValue();
        return (cookie & mask) == (mod.getCookie().getValue() & mask);
    }

    private static int output(OFFlowMod mod) {
        OFInstructionApplyActions apply = (OFInstructionApplyActions) mod.getInstructions().get(0);
        return ((OFActionOutput) apply.getActions().get(0)).getPort().getPortNumber();
    }

    /** The circuit switch's executor entries: in_port -> output port. */
    synchronized Map<Integer, Integer> circuits() {
        Map<Integer, Integer> out = new TreeMap<>();
        for (Entry e : entries.values()) {
            if (ExecutorCookies.isCircuit(e.cookie())) {
                Integer before = out.put(e.match().get(MatchField.IN_PORT).getPortNumber(), e.output());
                if (before != null) {
                    throw new AssertionError("two entries for one input port");
                }
            }
        }
        return out;
    }

    /** A ToR's pair entries: destination rack -> uplink port (every prefix's entry must agree). */
    synchronized Map<Integer, Integer> pairs() {
        Map<Integer, Integer> out = new TreeMap<>();
        for (Entry e : entries.values()) {
            if (ExecutorCookies.isPair(e.cookie())) {
                Integer before = out.put(ExecutorCookies.pairOf(e.cookie()).dst(), e.output());
                if (before != null && before != e.output()) {
                    throw new AssertionError("a pair's prefixes go out of two uplinks: " + entries.values());
                }
            }
        }
        return out;
    }

    static U64 u64(long v) {
        return U64.of(v);
    }
}
