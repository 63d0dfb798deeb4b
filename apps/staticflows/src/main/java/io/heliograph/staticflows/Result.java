package io.heliograph.staticflows;

import java.util.List;

/**
 * What became of an add or a delete.
 *
 * @param outcome  what happened
 * @param problems for REFUSED, every problem found, each naming the field or value at fault; for
 *                 FAILED, the switch's error or why it did not answer; for UNAVAILABLE, why the
 *                 cluster's store could not be reached
 */
public record Result(Outcome outcome, List<String> problems) {

    public Result {
        problems = List.copyOf(problems);
    }

    public enum Outcome {
        /** Stored, and confirmed by the switch (a barrier answered with no error before it). */
        INSTALLED,
        /** Stored; the switch is not connected and gets the entry when it connects. */
        STORED,
        /** Removed from the store and from the switch (or the switch was not connected). */
        DELETED,
        /** Nothing changed: the entry is invalid (see problems). */
        REFUSED,
        /** The switch answered with an error or not at all; the previous definition stays in force. */
        FAILED,
        /** There is no entry with that name on that switch. */
        NOT_FOUND,
        /** Nothing changed: the cluster's shared store, which keeps the entries, cannot be reached now. */
        UNAVAILABLE
    }

    public static Result of(Outcome outcome) {
        return new Result(outcome, List.of());
    }

    public static Result refused(List<String> problems) {
        return new Result(Outcome.REFUSED, problems);
    }

    public static Result failed(String problem) {
        return new Result(Outcome.FAILED, List.of(problem));
    }

    public static Result unavailable(String problem) {
        return new Result(Outcome.UNAVAILABLE, List.of(problem));
    }

    public boolean ok() {
        return outcome == Outcome.INSTALLED || outcome == Outcome.STORED || outcome == Outcome.DELETED;
    }

    /** One line for a shell or a log: the outcome and the problems. */
    public String message() {
        return problems.isEmpty() ? outcome.toString() : outcome + ": " + String.join("; ", problems);
    }
}
