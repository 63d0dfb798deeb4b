package io.heliograph.circuit.internal;

/**
 * A request or value the circuit app refuses, with whose fault it is and the field to blame (a
 * configuration attribute, a JSON member or path, a query parameter); the REST layer answers it with
 * the matching status. An IllegalArgumentException, so a refused configuration value keeps the
 * settings in force ({@code ConfiguredSettings}).
 */
public final class CircuitRefusal extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public enum Kind { BAD_REQUEST, NOT_FOUND, CONFLICT, UNAVAILABLE }

    private final Kind kind;
    private final String field;

    CircuitRefusal(Kind kind, String field, String message) {
        super(message);
        this.kind = kind;
        this.field = field;
    }

    static CircuitRefusal badRequest(String field, String message) {
        return new CircuitRefusal(Kind.BAD_REQUEST, field, message);
    }

    static CircuitRefusal unavailable(String message) {
        return new CircuitRefusal(Kind.UNAVAILABLE, null, message);
    }

    public Kind kind() {
        return kind;
    }

    /** The field to blame, or null. */
    public String field() {
        return field;
    }
}
