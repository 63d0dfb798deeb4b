package io.heliograph.solver.internal;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import io.heliograph.solver.LinearExpression;
import io.heliograph.solver.LinearModel;
import io.heliograph.solver.Solution;
import io.heliograph.solver.SolveOptions;
import io.heliograph.solver.SolveStatus;
import io.heliograph.solver.Variable;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** One solve of a {@link LinearModel} with OR-Tools' MPSolver: GLOP for an LP, SCIP for a MIP. */
final class LinearSolve {

    private LinearSolve() {
    }

    static Solution solve(LinearModel model, SolveOptions options) {
        String backend = model.hasIntegers() ? "SCIP" : "GLOP";
        MPSolver solver = MPSolver.createSolver(backend);
        if (solver == null) {
            throw new IllegalStateException("this OR-Tools build has no " + backend + " solver");
        }
        try {
            solver.suppressOutput();
            solver.setTimeLimit(Math.max(1, options.timeLimit().toMillis()));
            // One thread whatever is asked (the ceiling holds either way): GLOP has no other, and SCIP on
            // more runs its concurrent mode, which in OR-Tools 9.12 crashes the JVM (SIGSEGV in
            // MPSolver.solve) within a few repeated solves of a small MIP
            solver.setNumThreads(1);
            List<Variable> variables = model.variables();
            MPVariable[] vars = new MPVariable[variables.size()];
            for (Variable v : variables) {
                vars[v.index()] = solver.makeVar(v.lower(), v.upper(), v.isInteger(), v.name());
            }
            for (LinearModel.Constraint c : model.constraints()) {
                double constant = c.expression().constant();
                MPConstraint row = solver.makeConstraint(c.lower() - constant, c.upper() - constant, c.name());
                for (Map.Entry<Variable, Double> term : c.expression().terms().entrySet()) {
                    row.setCoefficient(vars[term.getKey().index()], term.getValue());
                }
            }
            if (!model.hints().isEmpty()) {
                MPVariable[] hinted = new MPVariable[model.hints().size()];
                double[] values = new double[hinted.length];
                int at = 0;
                for (Map.Entry<Variable, Double> hint : model.hints().entrySet()) {
                    hinted[at] = vars[hint.getKey().index()];
                    values[at++] = hint.getValue();
                }
                solver.setHint(hinted, values);
            }
            LinearExpression objective = model.objective();
            MPObjective goal = solver.objective();
            for (Map.Entry<Variable, Double> term : objective.terms().entrySet()) {
                goal.setCoefficient(vars[term.getKey().index()], term.getValue());
            }
            goal.setOffset(objective.constant());
            if (model.isMaximize()) {
                goal.setMaximization();
            } else {
                goal.setMinimization();
            }

            SolveStatus status = status(solver.solve());
            double[] values = new double[status.hasSolution() ? vars.length : 0];
            for (int i = 0; i < values.length; i++) {
                values[i] = vars[i].solutionValue();
            }
            double value = status.hasSolution() ? goal.value() : Double.NaN;
            // An LP solved to optimality has no separate bound: its objective is the bound.
            double bound = model.hasIntegers() || !status.hasSolution() ? goal.bestBound() : value;
            return Solution.ofLinear(status, value, bound, Duration.ofMillis(solver.wallTime()), values);
        } finally {
            solver.delete();
        }
    }

    private static SolveStatus status(MPSolver.ResultStatus status) {
        return switch (status) {
            case OPTIMAL -> SolveStatus.OPTIMAL;
            case FEASIBLE -> SolveStatus.FEASIBLE;
            case INFEASIBLE -> SolveStatus.INFEASIBLE;
            case UNBOUNDED -> SolveStatus.UNBOUNDED;
            case NOT_SOLVED -> SolveStatus.NOT_SOLVED;
            case MODEL_INVALID -> SolveStatus.MODEL_INVALID;
            case ABNORMAL -> SolveStatus.ABNORMAL;
        };
    }
}
