package io.heliograph.staticflows.internal.rest;

import org.projectfloodlight.openflow.types.DatapathId;
import org.springframework.http.HttpStatus;

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

    static RuntimeException conflict(String field, String message) {
        return ApiException.conflict(field, message);
    }

    /** The switch refused a valid entry, or did not answer: the fault is neither the caller's nor ours. */
    static RuntimeException switchFailed(String message) {
        return new ApiException(HttpStatus.BAD_GATEWAY, null, message);
    }
}
