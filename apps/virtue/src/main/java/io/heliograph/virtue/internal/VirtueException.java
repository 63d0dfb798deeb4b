package io.heliograph.virtue.internal;

/**
 * A refusal of the Virtue app, saying whose fault it is: the REST layer answers it with the matching
 * status, naming the request field at fault when there is one.
 */
public final class VirtueException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public enum Kind {
        /** The request is wrong (400). */
        BAD_REQUEST,
        /** No such experiment or optimisation (404). */
        NOT_FOUND,
        /** Not now: the experiment's state forbids it, or one is already running (409). */
        CONFLICT,
        /** The agent's key is not that VM's (403). */
        FORBIDDEN,
        /** The shared store or a needed service is away; try again (503). */
        UNAVAILABLE
    }

    private final Kind kind;
    private final String field;

    public VirtueException(Kind kind, String field, String message) {
        super(message);
        this.kind = kind;
        this.field = field;
    }

    public Kind kind() {
        return kind;
    }

    /** The request field at fault, or null. */
    public String field() {
        return field;
    }

    static VirtueException notFound(String field, String message) {
        return new VirtueException(Kind.NOT_FOUND, field, message);
    }

    static VirtueException conflict(String field, String message) {
        return new VirtueException(Kind.CONFLICT, field, message);
    }

    static VirtueException badRequest(String field, String message) {
        return new VirtueException(Kind.BAD_REQUEST, field, message);
    }
}
