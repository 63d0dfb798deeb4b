package io.heliograph.webui.api;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.DatapathIds;

/** Request arguments every resource reads the same way, refused as the client's mistake (400). */
public final class RequestArguments {

    private RequestArguments() {
    }

    /**
     * A datapath id as 00:00:00:00:00:00:00:01 (or fewer bytes), 0x1 or 1.
     *
     * @throws ApiException 400 naming {@code field} when the text is none of those
     */
    public static DatapathId dpid(String field, String text) {
        try {
            return DatapathIds.parse(text);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(field, e.getMessage());
        }
    }
}
