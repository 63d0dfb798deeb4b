package io.heliograph.testbed;

/**
 * POSIX signals to one process by its pid (never by name): SIGKILL for a crash, SIGSTOP and SIGCONT
 * for a process that freezes and wakes up again (a long GC pause, a stalled host).
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

    private static void send(long pid, String signal) {
        Command.of("kill", "-" + signal, Long.toString(pid)).check();
    }
}
