package io.heliograph.testbed;

/** An external command could not be run, timed out or exited non-zero; the message says which and why. */
public final class CommandFailedException extends RuntimeException {

    public CommandFailedException(String message) {
        super(message);
    }

    public CommandFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
