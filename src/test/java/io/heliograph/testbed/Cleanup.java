package io.heliograph.testbed;

/**
 * Runs every step of a teardown even when earlier ones fail, then reports all failures at once:
 * one stuck namespace must not leave the processes behind it running.
 */
public final class Cleanup {

    private final String what;
    private IllegalStateException failure;

    public Cleanup(String what) {
        this.what = what;
    }

    public void run(String step, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException | AssertionError e) {
            if (failure == null) {
                failure = new IllegalStateException("cleanup of " + what + " was incomplete");
            }
            failure.addSuppressed(new IllegalStateException(step + ": " + e.getMessage(), e));
        }
    }

    public void close(String step, AutoCloseable resource) {
        if (resource != null) {
            run(step, () -> {
                try {
                    resource.close();
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }

    /** Throws if any step failed, with each failure attached. */
    public void finish() {
        if (failure != null) {
            throw failure;
        }
    }
}
