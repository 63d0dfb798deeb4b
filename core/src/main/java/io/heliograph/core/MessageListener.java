package io.heliograph.core;

import java.util.List;
import java.util.Set;

import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFType;

/**
 * A step in the listener pipeline of one or more OpenFlow message types. Register an
 * implementation as an OSGi service (whiteboard): it joins the pipelines of {@link #getTypes()}
 * while registered, at the position the pipeline order gives its {@link #getName()}.
 *
 * <p>{@link #receive} runs on the switch's I/O thread (run-to-completion): state kept per switch
 * is only ever touched by one thread, and the method must never block. Slow work goes to an
 * executor and writes back through {@link OFSwitch#write}.
 */
public interface MessageListener {

    enum Command { CONTINUE, STOP }

    /** The name the pipeline ordering configuration refers to, e.g. {@code learningswitch}. */
    String getName();

    /** The message types whose pipelines this listener joins. */
    Set<OFType> getTypes();

    /** Handles one message; STOP ends the pipeline for this message. */
    Command receive(OFSwitch sw, OFMessage message);

    /**
     * Called on the I/O thread with the messages of one read from the switch, in order, before
     * {@link #receive} is called for the first of them, when at least one is of this listener's
     * types (messages of other types are in the list too: ignore them). A listener may load into
     * the CPU's caches what {@code receive} will need (the slots of a large table, say) in one tight
     * loop, so that the cache misses of a whole read overlap instead of coming one after the other.
     * It must change nothing that {@code receive} or anyone else can observe, and must not keep the
     * list, which is reused for the next read. Does nothing by default.
     */
    default void prepare(OFSwitch sw, List<OFMessage> read) {
    }
}
