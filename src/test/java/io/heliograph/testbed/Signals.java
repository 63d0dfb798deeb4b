package io.heliograph.testbed;

/**
 * POSIX signals to one process by its pid (never by name): SIGKILL for a crash, SIGSTOP and SIGCONT
 * for a process that freezes and wakes up again (a long GC pause, a stalled host), SIGTERM then
 * SIGKILL to end one.
 */
public final class Signals {

    private Signals() {
    }

    public static void kill(long pid) {
        send(pid, "KILL");
    }

    public static void stop(long pid) {
        send(pid, "STOP");
    }

    public static void resume(long pid) {
        send(pid, "CONT");
    }

    /**
     * Ends {@code process} as a service manager would: SIGTERM, and SIGKILL if it is still running after
     * {@code grace}; returns once it is gone (or the thread is interrupted, after a SIGKILL).
     */
    public static void terminate(Process process, java.time.Duration grace) {
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(grace.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void send(long pid, String signal) {
        Command.of("kill", "-" + signal, Long.toString(pid)).check();
    }
}
