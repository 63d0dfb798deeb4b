package io.heliograph.webui;

/**
 * A REST resource that holds connections open beyond a request (event streams). The server ends them
 * before it stops, so that their clients see the end at once and reconnect, instead of finding out when
 * the next write to a connection the stopped server left behind fails.
 */
public interface HeldConnections {

    /** Ends every connection held open now; new ones may open afterwards. */
    void endHeldConnections();
}
