package io.heliograph.staticflows.internal.rest;

import java.util.Locale;

import org.projectfloodlight.openflow.types.DatapathId;
import org.springframework.http.HttpStatus;

import io.heliograph.webui.api.ApiException;

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
        String s = text == null ? "" : text.trim();
        try {
            if (s.contains(":")) {
                String[] bytes = s.split(":", -1);
                if (bytes.length > 8) {
                    throw new NumberFormatException();
                }
                long value = 0;
                for (String b : bytes) {
                    if (b.isEmpty() || b.length() > 2) {
                        throw new NumberFormatException();
                    }
                    value = value << 8 | Integer.parseInt(b, 16);
                }
                return DatapathId.of(value);
            }
            if (s.toLowerCase(Locale.ROOT).startsWith("0x")) {
                return DatapathId.of(Long.parseUnsignedLong(s.substring(2), 16));
            }
            return DatapathId.of(Long.parseUnsignedLong(s));
        } catch (NumberFormatException e) {
            throw badRequest(field, "'" + text + "' is not a datapath id (e.g. 00:00:00:00:00:00:00:01, 0x1 or 1)");
        }
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
