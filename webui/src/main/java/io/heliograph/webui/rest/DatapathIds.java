package io.heliograph.webui.rest;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.webui.api.Requests;

/**
 * Datapath ids in the core resources' paths: the path variable {@code dpid}, read by
 * {@link Requests#dpid} (Floodlight's colon form, {@code 0x1} or {@code 1}).
 */
final class DatapathIds {

    static final String FIELD = "dpid";

    private DatapathIds() {
    }

    static DatapathId parse(String text) {
        return Requests.dpid(FIELD, text);
    }

    /** Bad input is echoed back, but never at any length. */
    static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 61) + "...";
    }
}
