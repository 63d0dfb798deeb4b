package io.heliograph.core.pipeline;

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
 * <p>Registration, removal and reordering are serialised on this object; {@link #dispatch} takes no
 * lock and allocates nothing, and may run on any number of threads at once.
 */
public final class ListenerPipelines {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerPipelines.class);
    private static final OFType[] TYPES = OFType.values();

    private final ListenerPipeline[] byType = new ListenerPipeline[TYPES.length];
    private final ListenerFailures failures;
    private long registrations;

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
        for (OFType type : types) {
            if (type != null) {
                byType[type.ordinal()].add(listener, name.trim(), sequence);
            }
        }
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

    /** Lets the listeners of the message's type prepare for it (before it is dispatched); no lock, no allocation. */
    public void prepare(OFSwitch sw, OFMessage message) {
        byType[message.getType().ordinal()].prepare(sw, message, failures);
    }

    /**
     * Runs a message through its type's pipeline on the calling thread. Returns STOP when a
     * listener stopped it, CONTINUE when it went through every listener (or there were none).
     */
    public Command dispatch(OFSwitch sw, OFMessage message) {
        return byType[message.getType().ordinal()].dispatch(sw, message, failures);
    }
}
