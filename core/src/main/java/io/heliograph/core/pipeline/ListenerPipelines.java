package io.heliograph.core.pipeline;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageListener;
import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.OFSwitch;

/**
 * One {@link ListenerPipeline} per OpenFlow message type: the listeners, their order by name, and
 * dispatch. Plain Java, so the OSGi component that feeds it services and configuration stays thin.
 *
 * <p>Registration, removal and reordering are serialised on this object; {@link #prepare} and
 * {@link #dispatch} take no lock and allocate nothing, and may run on any number of threads at once.
 */
public final class ListenerPipelines {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerPipelines.class);
    private static final OFType[] TYPES = OFType.values();

    private final ListenerPipeline[] byType = new ListenerPipeline[TYPES.length];
    private final ListenerFailures failures;
    private long registrations;
    /** Every listener in at least one pipeline, once, in registration order, with its types as bits. */
    private volatile Preparer[] preparers = new Preparer[0];

    static {
        if (TYPES.length > Long.SIZE) {
            throw new ExceptionInInitializerError("OFType has " + TYPES.length + " values, more than a long has bits");
        }
    }

    public ListenerPipelines(ListenerFailures failures) {
        this.failures = Objects.requireNonNull(failures, "failures");
        for (OFType type : TYPES) {
            byType[type.ordinal()] = new ListenerPipeline(type);
        }
    }

    /**
     * Adds a listener to the pipelines of its types. A listener whose name or types cannot be read
     * is logged and left out: one broken app must not keep the others from registering.
     * Returns whether it joined at least one pipeline.
     */
    public synchronized boolean add(MessageListener listener) {
        String name;
        Set<OFType> types;
        try {
            name = listener.getName();
            types = listener.getTypes();
        } catch (RuntimeException e) {
            LOG.warn("Ignoring message listener {}: reading its name or types failed", listener, e);
            return false;
        }
        if (name == null || name.isBlank() || types == null || types.isEmpty()) {
            LOG.warn("Ignoring message listener {}: it needs a name and at least one message type "
                    + "(name={}, types={})", listener, name, types);
            return false;
        }
        long sequence = registrations++;
        long bits = 0;
        for (OFType type : types) {
            if (type != null) {
                byType[type.ordinal()].add(listener, name.trim(), sequence);
                bits |= bit(type);
            }
        }
        Preparer[] next = Arrays.copyOf(preparers, preparers.length + 1);
        next[next.length - 1] = new Preparer(listener, bits);
        preparers = next;
        return true;
    }

    /**
     * Removes a listener from every pipeline it is in; returns the name it joined with, or null if it
     * was in none. Messages already in flight may still reach it.
     */
    public synchronized String remove(MessageListener listener) {
        String name = null;
        for (ListenerPipeline pipeline : byType) {
            String removed = pipeline.remove(listener);
            name = removed != null ? removed : name;
        }
        preparers = Arrays.stream(preparers).filter(p -> p.listener != listener).toArray(Preparer[]::new);
        return name;
    }

    /** Sets the name order for a type and reorders its pipeline at once. */
    public synchronized void setOrder(OFType type, List<String> names) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(names, "names");
        byType[type.ordinal()].setOrder(names);
    }

    public synchronized List<String> getOrder(OFType type) {
        return byType[Objects.requireNonNull(type, "type").ordinal()].order();
    }

    /** The listener names of each non-empty pipeline, in order. */
    public Map<OFType, List<String>> names() {
        Map<OFType, List<String>> result = new EnumMap<>(OFType.class);
        for (ListenerPipeline pipeline : byType) {
            List<String> names = pipeline.names();
            if (!names.isEmpty()) {
                result.put(pipeline.type(), names);
            }
        }
        return result;
    }

    /** The listener names of one type's pipeline, in order. */
    public List<String> names(OFType type) {
        return byType[type.ordinal()].names();
    }

    /**
     * Lets each listener of at least one of the read's message types prepare for the read (before
     * its first message is dispatched). One that throws is reported with its first message of its
     * types, and the others still prepare.
     */
    public void prepare(OFSwitch sw, List<OFMessage> read) {
        long present = 0;
        for (int i = 0; i < read.size(); i++) {
            present |= bit(read.get(i).getType());
        }
        for (Preparer preparer : preparers) {
            if ((preparer.types & present) != 0) {
                try {
                    preparer.listener.prepare(sw, read);
                } catch (RuntimeException | LinkageError e) {
                    failures.listenerFailed(sw, firstOf(read, preparer.types), preparer.listener, e);
                }
            }
        }
    }

    private static OFMessage firstOf(List<OFMessage> read, long types) {
        for (OFMessage message : read) {
            if ((bit(message.getType()) & types) != 0) {
                return message;
            }
        }
        throw new IllegalArgumentException("no message of the listener's types in the read");
    }

    private static long bit(OFType type) {
        return 1L << type.ordinal();
    }

    /**
     * Runs a message through its type's pipeline on the calling thread. Returns STOP when a
     * listener stopped it, CONTINUE when it went through every listener (or there were none).
     */
    public Command dispatch(OFSwitch sw, OFMessage message) {
        return byType[message.getType().ordinal()].dispatch(sw, message, failures);
    }

    private record Preparer(MessageListener listener, long types) {
    }
}
