package io.heliograph.webui.api;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * A request the API refuses, with the status that says whose fault it is and, where one field of the
 * request is to blame, that field's name (a JSON path such as {@code match.eth_type}, a path variable
 * such as {@code dpid}, or a query parameter). The web bundle answers it as a JSON body
 * {@code {"status":..,"error":..,"field":..,"message":..}}; no stack trace ever leaves the server.
 */
public class ApiException extends ResponseStatusException {

    private static final long serialVersionUID = 1L;

    private final String field;

    public ApiException(HttpStatus status, String field, String message) {
        super(status, message);
        this.field = field;
    }

    /** 400: {@code field} of the request is wrong; {@code message} says how. */
    public static ApiException badRequest(String field, String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, field, message);
    }

    /** 404: the thing the path names (its {@code field}, e.g. {@code dpid}) does not exist. */
    public static ApiException notFound(String field, String message) {
        return new ApiException(HttpStatus.NOT_FOUND, field, message);
    }

    /** 409: the request is well formed but clashes with stored state (a name taken, a version moved on). */
    public static ApiException conflict(String field, String message) {
        return new ApiException(HttpStatus.CONFLICT, field, message);
    }

    /** 503: the service behind the resource is not running (its app is stopped or starting). */
    public static ApiException unavailable(String message) {
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, null, message);
    }

    /** The request field to blame, or null when the problem is not one field's. */
    public String field() {
        return field;
    }

    /** The message alone, without the status Spring prefixes to {@link #getMessage()}. */
    public String message() {
        return getReason();
    }
}
