package io.heliograph.virtue.engine;

import java.util.List;

/** An EDF or a set of measurements refused, with every problem found and where it is. */
public final class InvalidInputException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final transient List<Problem> problems;

    public InvalidInputException(List<Problem> problems) {
        super(summary(problems));
        this.problems = List.copyOf(problems);
    }

    /** Every problem, in the order of the document. */
    public List<Problem> problems() {
        return problems;
    }

    private static String summary(List<Problem> problems) {
        StringBuilder text = new StringBuilder(problems.size() == 1 ? "1 problem" : problems.size() + " problems");
        for (Problem problem : problems) {
            text.append("\n  ").append(problem);
        }
        return text.toString();
    }
}
