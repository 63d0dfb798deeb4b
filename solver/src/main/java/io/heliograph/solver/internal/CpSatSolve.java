package io.heliograph.solver.internal;

import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.LinearExprBuilder;
import io.heliograph.solver.CpModel;
import io.heliograph.solver.IntExpression;
import io.heliograph.solver.IntVar;
import io.heliograph.solver.Solution;
import io.heliograph.solver.SolveOptions;
import io.heliograph.solver.SolveStatus;
import java.time.Duration;
import java.util.Map;

/** One solve of a {@link CpModel} with OR-Tools' CP-SAT. */
final class CpSatSolve {

    private CpSatSolve() {
    }

    static Solution solve(CpModel model, SolveOptions options) {
        com.google.ortools.sat.CpModel cp = new com.google.ortools.sat.CpModel();
        com.google.ortools.sat.IntVar[] vars = new com.google.ortools.sat.IntVar[model.variables().size()];
        for (IntVar v : model.variables()) {
            vars[v.index()] = cp.newIntVar(v.lower(), v.upper(), v.name());
        }
        for (CpModel.Linear c : model.linears()) {
            cp.addLinearConstraint(terms(c.expression(), vars).build(),
                    shifted(c.lower(), c.expression().constant()), shifted(c.upper(), c.expression().constant()));
        }
        for (CpModel.AllDifferent c : model.allDifferents()) {
            cp.addAllDifferent(c.variables().stream().map(v -> vars[v.index()]).toList());
        }
        model.hints().forEach((v, value) -> cp.addHint(vars[v.index()], value));
        IntExpression objective = model.objective();
        if (!objective.terms().isEmpty()) {
            LinearExpr goal = terms(objective, vars).add(objective.constant()).build();
            if (model.isMaximize()) {
                cp.maximize(goal);
            } else {
                cp.minimize(goal);
            }
        }

        CpSolver solver = new CpSolver();
        solver.getParameters()
                .setMaxTimeInSeconds(options.timeLimit().toNanos() / 1e9)
                .setNumWorkers(options.workers());
        SolveStatus status = status(solver.solve(cp));
        long[] values = new long[status.hasSolution() ? vars.length : 0];
        for (int i = 0; i < values.length; i++) {
            values[i] = solver.value(vars[i]);
        }
        // Without an objective CP-SAT reports 0 for both; the constant alone is the objective then.
        double value = objective.terms().isEmpty() ? objective.constant() : solver.objectiveValue();
        double bound = objective.terms().isEmpty() ? objective.constant() : solver.bestObjectiveBound();
        return Solution.ofCp(status, value, bound, Duration.ofNanos((long) (solver.wallTime() * 1e9)), values);
    }

    private static LinearExprBuilder terms(IntExpression expression, com.google.ortools.sat.IntVar[] vars) {
        LinearExprBuilder builder = LinearExpr.newBuilder();
        for (Map.Entry<IntVar, Long> term : expression.terms().entrySet()) {
            builder.addTerm(vars[term.getKey().index()], term.getValue());
        }
        return builder;
    }

    /** {@code bound - constant}, an infinite bound (Long.MIN_VALUE, Long.MAX_VALUE) staying infinite. */
    private static long shifted(long bound, long constant) {
        if (bound == Long.MIN_VALUE || bound == Long.MAX_VALUE) {
            return bound;
        }
        return Math.subtractExact(bound, constant);
    }

    private static SolveStatus status(CpSolverStatus status) {
        return switch (status) {
            case OPTIMAL -> SolveStatus.OPTIMAL;
            case FEASIBLE -> SolveStatus.FEASIBLE;
            case INFEASIBLE -> SolveStatus.INFEASIBLE;
            case MODEL_INVALID -> SolveStatus.MODEL_INVALID;
            case UNKNOWN -> SolveStatus.NOT_SOLVED;
            case UNRECOGNIZED -> SolveStatus.ABNORMAL;
        };
    }
}
