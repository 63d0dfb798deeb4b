package io.heliograph.core.pipeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFType;

import io.heliograph.core.MessageListener;
import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.OFSwitch;

/**
 * The ordered chain of listeners for one message type.
 *
 * <p>Changes (listeners coming and going, a new order) are rare and made under the owner's lock;
 * each one publishes a fresh immutable {@link Chain}, so {@link #dispatch} on the I/O threads reads
 * one volatile field and walks an array: no lock, no allocation, and a message in flight finishes on
 * the chain it started with.
 *
 * <p>Position: listeners named in the order come first, in the order's sequence; the others follow
 * in registration order. Unlike Beacon's insert-at-registration, the position depends only on the
 * order and the registration sequence, never on which listener happened to register first.
 */
final class ListenerPipeline {

    private final OFType type;
    private final List<Member> members = new ArrayList<>();
    private List<String> order = List.of();
    private volatile Chain chain = new Chain(new MessageListener[0], List.of());

    ListenerPipeline(OFType type) {
        this.type = type;
    }

    OFType type() {
        return type;
    }

    /** Caller holds the owner's lock. */
    void add(MessageListener listener, String name, long sequence) {
        members.add(new Member(listener, name, sequence));
        rebuild();
    }

    /** Caller holds the owner's lock. Returns the listener's name, or null when it was not in this pipeline. */
    String remove(MessageListener listener) {
        for (int i = 0; i < members.size(); i++) {
            Member member = members.get(i);
            if (member.listener == listener) {
                members.remove(i);
                rebuild();
                return member.name;
            }
        }
        return null;
    }

    /** Caller holds the owner's lock. Blank and repeated names are dropped. */
    void setOrder(List<String> names) {
        order = cleanOrder(names);
        rebuild();
    }

    /** The configured order (may name listeners that are not registered). */
    List<String> order() {
        return order;
    }

    /** The names of the listeners, in chain order. */
    List<String> names() {
        return chain.names;
    }

    boolean isEmpty() {
        return chain.listeners.length == 0;
    }

    /**
     * Runs the message through the chain until a listener answers STOP. A listener that throws is
     * reported to {@code failures} and skipped. Returns STOP when a listener stopped the chain.
     */
    Command dispatch(OFSwitch sw, OFMessage message, ListenerFailures failures) {
        for (MessageListener listener : chain.listeners) {
            Command command;
            try {
                command = listener.receive(sw, message);
            } catch (VirtualMachineError e) {
                if (!(e instanceof StackOverflowError)) {
                    throw e; // the JVM is in trouble; a stack overflow is only the listener's own bug
                }
                failures.listenerFailed(sw, message, listener, e);
                continue;
            } catch (Throwable e) {
                // Includes LinkageError: a listener whose bundle is being replaced may fail to load a class.
                failures.listenerFailed(sw, message, listener, e);
                continue;
            }
            if (command == Command.STOP) {
                return Command.STOP;
            }
        }
        return Command.CONTINUE;
    }

    static List<String> cleanOrder(List<String> names) {
        LinkedHashSet<String> clean = new LinkedHashSet<>();
        for (String name : names) {
            if (name != null && !name.isBlank()) {
                clean.add(name.trim());
            }
        }
        return List.copyOf(clean);
    }

    private void rebuild() {
        Map<String, Integer> rank = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            rank.put(order.get(i), i);
        }
        int unlisted = order.size();
        List<Member> sorted = new ArrayList<>(members);
        sorted.sort(Comparator.<Member>comparingInt(m -> rank.getOrDefault(m.name, unlisted))
                .thenComparingLong(m -> m.sequence));
        MessageListener[] listeners = new MessageListener[sorted.size()];
        List<String> names = new ArrayList<>(sorted.size());
        for (int i = 0; i < listeners.length; i++) {
            listeners[i] = sorted.get(i).listener;
            names.add(sorted.get(i).name);
        }
        chain = new Chain(listeners, List.copyOf(names));
    }

    private record Member(MessageListener listener, String name, long sequence) {
    }

    /** An immutable snapshot: the array is never written after construction. */
    private record Chain(MessageListener[] listeners, List<String> names) {
    }
}
