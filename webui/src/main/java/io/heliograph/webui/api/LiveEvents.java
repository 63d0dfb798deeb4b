package io.heliograph.webui.api;

import java.util.function.Supplier;

/**
 * The web UI's live events ({@code GET /api/v1/events}, server-sent events): what an app publishes here
 * reaches every open stream as {@code event: <type>} with its payload as one JSON {@code data:} line.
 * The web bundle registers this service while it runs; an app publishes from a component in its
 * {@code internal.rest} package that references it, so the component simply stays unsatisfied while
 * the web bundle is absent.
 *
 * <p>Types in use: {@code switch}, {@code link} and {@code host}; each payload has an {@code action}
 * ({@code connected}, {@code added}, {@code removed}, ...) and the REST view of the thing that changed.
 * Publish every change: the web UI debounces bursts itself.
 */
public interface LiveEvents {

    /**
     * Sends the payload {@code payload} supplies, written as JSON, to every open stream as an event of
     * {@code type}. The payload is made only while a stream is open, so a change nobody watches costs
     * the caller (often an OpenFlow I/O thread) nothing but this call. Never
     * blocks and never writes to the network on the caller's thread, so OpenFlow and app threads may
     * call it; a stream that falls too far behind is closed (its client reconnects and reloads).
     *
     * @param type lower-case letters, digits and dashes, starting with a letter ({@code switch});
     *             {@code open} is reserved (the web UI's name for a stream that (re)connected)
     * @throws IllegalArgumentException when {@code type} is not such a name or {@code payload} cannot be
     *             written as JSON; the message says which
     */
    void publish(String type, Supplier<?> payload);
}
