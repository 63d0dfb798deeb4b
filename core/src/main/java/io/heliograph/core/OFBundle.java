package io.heliograph.core;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;

import org.projectfloodlight.openflow.protocol.OFBundleCtrlMsg;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.types.BundleId;

/**
 * An OpenFlow 1.4+ bundle opened on one switch ({@link OFSwitch#bundle()}): messages added to it
 * take effect together, when it is committed, or not at all. A circuit switch's day (one flow entry
 * per input port) is installed this way, so no packet ever sees half of two matchings.
 *
 * <pre>{@code
 * OFBundle day = sw.bundle();
 * day.add(flowMods);
 * day.commit().whenComplete((reply, e) -> ...);   // e names the switch's error
 * }</pre>
 *
 * <p>Every step goes to the switch at once (opening when the bundle is made, each message as it is
 * added); calls from another thread than the switch's are coalesced onto it, in the order one
 * caller makes them. Use a bundle from one thread at a time.
 *
 * <p>{@link #commit()} first closes the bundle and waits for the switch to confirm it: a switch that
 * refused one of the messages as it was added (some switches check messages then, and keep the
 * bundle open without it) has said so by then, and the bundle is discarded instead of committing
 * the rest. So a bundle commits as it was given or not at all.
 *
 * <p>A bundle that is neither committed nor discarded within the controller's request timeout of
 * being opened is discarded on the switch; committing it later fails.
 */
public interface OFBundle {

    /** Its id on the switch: unique on the switch's connection. */
    BundleId getId();

    /**
     * Adds messages (flow-mods, group-mods, packet-outs...), in order, each in a BUNDLE_ADD of its own
     * carrying the message's xid, which is set here. Returns this bundle.
     *
     * @throws IllegalStateException when the bundle was committed or discarded already
     */
    OFBundle add(OFMessage... messages);

    /** As {@link #add(OFMessage...)}. */
    OFBundle add(Collection<? extends OFMessage> messages);

    /** How many messages were added. */
    int size();

    /**
     * Closes and commits the bundle. The future completes, on the switch's I/O thread (continue
     * elsewhere for anything slow), with the switch's COMMIT_REPLY; exceptionally with an
     * {@link OFBundleException} naming the switch's error when the switch refuses the bundle or one
     * of its messages (nothing of the bundle then took effect), with a
     * {@link java.util.concurrent.TimeoutException} when the switch does not answer within the
     * request timeout, or with an {@link java.io.IOException} when the switch disconnects first.
     *
     * @throws IllegalStateException when the bundle was committed or discarded already
     */
    CompletableFuture<OFBundleCtrlMsg> commit();

    /**
     * Discards the bundle: none of its messages take effect. Completes when the switch confirms; a
     * bundle already discarded (by a timeout) completes at once.
     */
    CompletableFuture<Void> discard();
}
