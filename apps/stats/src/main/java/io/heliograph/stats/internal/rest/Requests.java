package io.heliograph.stats.internal.rest;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.RequestArguments;

/**
 * Reads request arguments and makes the refusals the web bundle renders. The refusals are typed as
 * RuntimeException so that the resources load (and their components activate) in a controller whose
 * web bundle does not carry Spring: ApiException's superclass is Spring's, and only this class needs it.
 */
final class Requests {

    private Requests() {
    }

    /** A datapath id as 00:00:00:00:00:00:00:01 (or fewer bytes), 0x1, or 1. */
    static DatapathId dpid(String field, String text) {
        return RequestArguments.dpid(field, text);
    }

    static RuntimeException badRequest(String field, String message) {
        return ApiException.badRequest(field, message);
    }

    static RuntimeException notFound(String field, String message) {
        return ApiException.notFound(field, message);
    }
}
