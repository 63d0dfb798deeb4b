package io.heliograph.core;

import java.util.Objects;

/**
 * A request or value an app refuses, with whose fault it is and the field to blame (a JSON path, a
 * path variable, a query parameter, a configuration attribute). Thrown by an app's plain runtime,
 * which knows nothing of HTTP: the web bundle answers it with the status of its kind and a JSON error
 * body naming the field, as it answers its own refusals. An IllegalArgumentException, so a refused
 * configuration value keeps the settings in force ({@link ConfiguredSettings}).
 */
public final class Refusal extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** Whose fault: 400, 403, 404, 409 and 503 over HTTP. */
    public enum Kind { BAD_REQUEST, FORBIDDEN, NOT_FOUND, CONFLICT, UNAVAILABLE }

    private final Kind kind;
    private final String field;

    public Refusal(Kind kind, String field, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.field = field;
    }

    /** {@code field} of the request is wrong; {@code message} says how. */
    public static Refusal badRequest(String field, String message) {
        return new Refusal(Kind.BAD_REQUEST, field, message);
    }

    /** The caller may not do this (an agent speaking for another's cluster). */
    public static Refusal forbidden(String field, String message) {
        return new Refusal(Kind.FORBIDDEN, field, message);
    }

    /** The thing {@code field} names does not exist. */
    public static Refusal notFound(String field, String message) {
        return new Refusal(Kind.NOT_FOUND, field, message);
    }

    /** Well formed, but it clashes with the state kept. */
    public static Refusal conflict(String field, String message) {
        return new Refusal(Kind.CONFLICT, field, message);
    }

    /** What the request needs is not running or not reachable now. */
    public static Refusal unavailable(String message) {
        return new Refusal(Kind.UNAVAILABLE, null, message);
    }

    /**
     * A bad document: {@code problem}'s message starts with the JSON path of what is wrong
     * ({@code "$.links[2].cost: must be ..."}, as {@link io.heliograph.core.json.JsonPath} words it), which
     * becomes the field.
     */
    public static Refusal badDocument(IllegalArgumentException problem) {
        String message = problem.getMessage() == null ? "bad document" : problem.getMessage();
        int colon = message.indexOf(": ");
        String field = message.startsWith("$") && colon > 0 ? message.substring(0, colon) : null;
        Refusal refusal = new Refusal(Kind.BAD_REQUEST, field, message);
        refusal.initCause(problem);
        return refusal;
    }

    public Kind kind() {
        return kind;
    }

    /** The field to blame, or null. */
    public String field() {
        return field;
    }

    /** The HTTP status of the kind. */
    public int status() {
        return switch (kind) {
            case BAD_REQUEST -> 400;
            case FORBIDDEN -> 403;
            case NOT_FOUND -> 404;
            case CONFLICT -> 409;
            case UNAVAILABLE -> 503;
        };
    }
}
