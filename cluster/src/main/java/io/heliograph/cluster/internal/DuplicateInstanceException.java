package io.heliograph.cluster.internal;

/** Another live instance of the cluster registered this instance's id: this one is refused. */
public final class DuplicateInstanceException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    DuplicateInstanceException(String message) {
        super(message);
    }
}
