package io.heliograph.webui.api;

import org.projectfloodlight.openflow.types.DatapathId;
import org.springframework.http.HttpStatus;

import io.heliograph.core.DatapathIds;

/**
 * Request arguments every resource reads the same way, and the refusals resources throw. The
 * refusals are typed as RuntimeException so that a resource class refers to {@link ApiException}
 * (whose superclass is Spring's) only through this class: the apps' resources load, and their
 * components activate, whether or not the web bundle is there to map them.
 */
public final class Requests {

    private Requests() {
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

    /** 400: {@code field} of the request is wrong. */
    public static RuntimeException badRequest(String field, String message) {
        return ApiException.badRequest(field, message);
    }

    /** 404: what {@code field} names does not exist. */
    public static RuntimeException notFound(String field, String message) {
        return ApiException.notFound(field, message);
    }

    /** 409: the request clashes with stored state. */
    public static RuntimeException conflict(String field, String message) {
        return ApiException.conflict(field, message);
    }

    /** 502: the switch refused a valid request, or did not answer: neither the caller's fault nor ours. */
    public static RuntimeException switchFailed(String message) {
        return new ApiException(HttpStatus.BAD_GATEWAY, null, message);
    }

    /** 503: a service the request needs cannot be reached now (the cluster's store, say); nothing was changed. */
    public static RuntimeException unavailable(String message) {
        return ApiException.unavailable(message);
    }
}
