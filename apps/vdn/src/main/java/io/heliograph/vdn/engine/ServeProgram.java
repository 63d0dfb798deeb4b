package io.heliograph.vdn.engine;

import io.heliograph.solver.CpModel;
import io.heliograph.solver.IntExpression;
import io.heliograph.solver.IntVar;
import io.heliograph.solver.LinearExpression;
import io.heliograph.solver.LinearModel;
import io.heliograph.solver.Solution;
import io.heliograph.solver.Variable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The integer program of §4.5 (Fig 4.8) over the pruned variables: {@code Serves_{l,o}} only for the
 * candidate links of each object ({@link ServeIndex#candidates}), and one {@code served} variable per
 * request standing for its group's dummy link (unbounded, free):
 *
 * <pre>
 * maximise   Σ_r w_s·Priority_o·served_r − Σ_{l,o} w_c·Cost(l)·Bitrate(o)·x_{l,o}
 * subject to Σ_o Bitrate(o)·x_{l,o} ≤ Capacity(l)          (only where the candidates could exceed it)
 *            x_{l,o} ≤ Σ_{l' ∈ InLinks(l)} x_{l',o}        (not for links out of sources)
 *            served_r ≤ Σ_{l ∈ InLinks(group)} x_{l,o}
 * </pre>
 *
 * Built either as its LP relaxation (GLOP: every variable in [0, 1]) or as the integer program itself
 * (SCIP), both {@link LinearModel}s.
 */
final class ServeProgram {

    /** CP-SAT's objective is whole: ours scaled so its largest coefficient is this, then rounded. */
    static final double CP_SCALE = 1e6;

    private final ServeIndex index;
    /** For each object, the first variable of its candidate links (they follow in candidate order). */
    private final int[] first;
    private final int linkVariables;

    ServeProgram(ServeIndex index) {
        this.index = index;
        first = new int[index.objects()];
        int count = 0;
        for (int o = 0; o < index.objects(); o++) {
            first[o] = count;
            count += index.candidates(o).length;
        }
        linkVariables = count;
    }

    /** The number of {@code Serves_{l,o}} variables: candidate (link, object) pairs. */
    int linkVariables() {
        return linkVariables;
    }

    /** The variable of (l, o), or -1 when l is no candidate of o. */
    int variable(int l, int o) {
        int at = Arrays.binarySearch(index.candidates(o), l);
        return at < 0 ? -1 : first[o] + at;
    }

    /**
     * The program as a {@link LinearModel}: its relaxation (every variable continuous in [0, 1], for
     * GLOP) or, with {@code integer}, the integer program itself (SCIP).
     */
    Linear linear(boolean integer) {
        LinearModel model = new LinearModel(integer ? "vdn-trees" : "vdn-relaxation");
        Variable[] x = new Variable[linkVariables];
        for (int o = 0; o < index.objects(); o++) {
            int[] links = index.candidates(o);
            for (int i = 0; i < links.length; i++) {
                String name = "x" + links[i] + "_" + o;
                x[first[o] + i] = integer ? model.binary(name) : model.continuous(name, 0, 1);
            }
        }
        Variable[] served = new Variable[index.requests()];
        for (int r = 0; r < served.length; r++) {
            served[r] = integer ? model.binary("s" + r) : model.continuous("s" + r, 0, 1);
        }
        constrain(model, x, served);
        LinearExpression objective = new LinearExpression();
        for (int r = 0; r < served.length; r++) {
            objective.plus(index.gain(index.requestObject[r]), served[r]);
        }
        forEachLink((v, l, o) -> {
            double price = index.price(l, o);
            if (price != 0) {
                objective.plus(-price, x[v]);
            }
        });
        model.maximize(objective);
        return new Linear(model, x, served);
    }

    /** The program with its variables. */
    final class Linear {
        final LinearModel model;
        private final Variable[] x;
        private final Variable[] served;

        private Linear(LinearModel model, Variable[] x, Variable[] served) {
            this.model = model;
            this.x = x;
            this.served = served;
        }

        /** The value of {@code x_{l,o}} in a solution; 0 when l is no candidate of o. */
        double link(Solution solution, int l, int o) {
            int v = variable(l, o);
            return v < 0 ? 0 : solution.value(x[v]);
        }

        double served(Solution solution, int r) {
            return solution.value(served[r]);
        }

        /**
         * The integer program for CP-SAT: the same variables and rows (whose coefficients are whole
         * kbit/s and ±1), the objective scaled so its largest coefficient is {@link #CP_SCALE}, rounded, and
         * the same hints.
         */
        Cp cp() {
            CpModel cp = new CpModel(model.name());
            List<IntVar> vars = new ArrayList<>();
            for (Variable v : model.variables()) {
                vars.add(cp.intVar(v.name(), (long) v.lower(), (long) v.upper()));
            }
            for (LinearModel.Constraint c : model.constraints()) {
                IntExpression row = new IntExpression();
                c.expression().terms().forEach((v, a) -> row.plus(Math.round(a), vars.get(v.index())));
                cp.constrain(c.name(), bound(c.lower()), row, bound(c.upper()));
            }
            double largest = model.objective().terms().values().stream().mapToDouble(Math::abs).max().orElse(1);
            double factor = CP_SCALE / Math.max(largest, Double.MIN_NORMAL);
            double[] error = {0};
            IntExpression objective = new IntExpression();
            model.objective().terms().forEach((v, a) -> {
                long scaled = Math.round(a * factor);
                error[0] += Math.abs(a * factor - scaled);
                if (scaled != 0) {
                    objective.plus(scaled, vars.get(v.index()));
                }
            });
            cp.maximize(objective);
            model.hints().forEach((v, value) -> cp.hint(vars.get(v.index()), Math.round(value)));
            return new Cp(cp, factor, error[0]);
        }

        /**
         * The CP-SAT model with how its objective was scaled: {@code factor}, and {@code error}, the sum of
         * what rounding took from or added to each coefficient, by which the solver's objective may differ
         * from {@code factor} times ours at most.
         */
        final class Cp {
            final CpModel model;
            private final double factor;
            private final double error;

            private Cp(CpModel model, double factor, double error) {
                this.model = model;
                this.factor = factor;
                this.error = error;
            }

            /** A bound on our objective from the solver's bound on the scaled, rounded one. */
            double bound(Solution solution) {
                return (solution.bestBound() + error) / factor;
            }

            /** The trees of a solution. */
            Map<String, BitSet> serves(Solution solution) {
                return trees(v -> solution.value(model.variables().get(x[v].index())) == 1);
            }
        }

        private static long bound(double value) {
            return value == Double.NEGATIVE_INFINITY ? Long.MIN_VALUE
                    : value == Double.POSITIVE_INFINITY ? Long.MAX_VALUE : Math.round(value);
        }

        /** Hints every variable with its value in {@code trees} (object key to links): a warm start. */
        void hint(Map<String, BitSet> trees) {
            for (int o = 0; o < index.objects(); o++) {
                BitSet links = trees.getOrDefault(index.key[o], new BitSet());
                int[] candidates = index.candidates(o);
                for (int i = 0; i < candidates.length; i++) {
                    model.hint(x[first[o] + i], links.get(candidates[i]) ? 1 : 0);
                }
            }
            for (int r = 0; r < served.length; r++) {
                BitSet links = trees.getOrDefault(index.key[index.requestObject[r]], new BitSet());
                boolean reached = Arrays.stream(index.in[index.requestGroup[r]]).anyMatch(links::get);
                model.hint(served[r], reached ? 1 : 0);
            }
        }

        /** The trees of an integer solution: the links whose variable is 1. */
        Map<String, BitSet> serves(Solution solution) {
            return trees(v -> solution.value(x[v]) > 0.5);
        }

        /** For each object, the links whose variable (by its index in {@code x}) {@code carried} holds. */
        private Map<String, BitSet> trees(IntPredicate carried) {
            Map<String, BitSet> serves = new LinkedHashMap<>();
            for (int o = 0; o < index.objects(); o++) {
                int[] links = index.candidates(o);
                BitSet set = new BitSet();
                for (int i = 0; i < links.length; i++) {
                    if (carried.test(first[o] + i)) {
                        set.set(links[i]);
                    }
                }
                if (!set.isEmpty()) {
                    serves.put(index.key[o], set);
                }
            }
            return serves;
        }
    }

    private interface LinkVisitor {
        void visit(int variable, int link, int object);
    }

    private void forEachLink(LinkVisitor visitor) {
        for (int o = 0; o < index.objects(); o++) {
            int[] links = index.candidates(o);
            for (int i = 0; i < links.length; i++) {
                visitor.visit(first[o] + i, links[i], o);
            }
        }
    }

    private void constrain(LinearModel model, Variable[] x, Variable[] served) {
        // capacity, only where the candidates could together exceed it
        LinearExpression[] load = new LinearExpression[index.links()];
        long[] most = new long[index.links()];
        forEachLink((v, l, o) -> most[l] += index.bitrate[o]);
        forEachLink((v, l, o) -> {
            if (most[l] > index.capacity[l]) {
                if (load[l] == null) {
                    load[l] = new LinearExpression();
                }
                load[l].plus(index.bitrate[o], x[v]);
            }
        });
        for (int l = 0; l < load.length; l++) {
            if (load[l] != null) {
                model.atMost("cap" + l, load[l], index.capacity[l]);
            }
        }
        cardinality(model, x, load);
        // only send what you received
        forEachLink((v, l, o) -> {
            int tail = index.from[l];
            if (index.tier[tail] == Tier.SOURCE) {
                return;
            }
            LinearExpression row = new LinearExpression().plus(1, x[v]);
            for (int in : index.in[tail]) {
                int feeder = variable(in, o);
                if (feeder >= 0) {
                    row.plus(-1, x[feeder]);
                }
            }
            model.atMost("recv" + l + "_" + o, row, 0);
        });
        // a group is served an object that a link into it carries
        for (int r = 0; r < served.length; r++) {
            int o = index.requestObject[r];
            LinearExpression row = new LinearExpression().plus(1, served[r]);
            for (int in : index.in[index.requestGroup[r]]) {
                int v = variable(in, o);
                if (v >= 0) {
                    row.plus(-1, x[v]);
                }
            }
            model.atMost("serve" + r, row, 0);
            cut(model, x, served[r], r, 1);
            cut(model, x, served[r], r, 2);
        }
    }

    /**
     * {@code Σ x_{l,o} ≤ ⌊Capacity(l) / B⌋} over the objects of bitrate B or more that link l could carry,
     * for each bitrate B among them, where that is fewer than there are: whole objects of B or more, at
     * most that many fit. Implied by the capacity row for integer values, not for fractional ones: without
     * it the relaxation carries two and a half 30 Mbit/s objects on a 75 Mbit/s link, and its bound is
     * that much above any trees. Only where the capacity row is written, and only when {@code Capacity(l)}
     * is no multiple of B (otherwise the capacity row says as much).
     */
    private void cardinality(LinearModel model, Variable[] x, LinearExpression[] load) {
        Map<Integer, List<int[]>> byLink = new LinkedHashMap<>(); // link -> (bitrate, variable)
        forEachLink((v, l, o) -> {
            if (load[l] != null) {
                byLink.computeIfAbsent(l, k -> new ArrayList<>()).add(new int[] {index.bitrate[o], v});
            }
        });
        byLink.forEach((l, carried) -> {
            carried.sort((a, b) -> Integer.compare(b[0], a[0]));
            long capacity = index.capacity[l];
            for (int i = 0; i < carried.size(); i++) {
                int bitrate = carried.get(i)[0];
                if (i + 1 < carried.size() && carried.get(i + 1)[0] == bitrate) {
                    continue; // the row of bitrate B takes every object of B
                }
                long fit = capacity / bitrate;
                if (i + 1 > fit && capacity % bitrate != 0) {
                    LinearExpression row = new LinearExpression();
                    for (int j = 0; j <= i; j++) {
                        row.plus(1, x[carried.get(j)[1]]);
                    }
                    model.atMost("card" + l + "_" + bitrate, row, fit);
                }
            }
        });
    }

    /**
     * {@code served_r ≤ Σ x} over the links entering the nodes {@code up} tiers above the request's group
     * (its edges, or the reflectors above them): every path to the group crosses that cut. Implied by
     * the rows above for integer values, not for fractional ones: without it the relaxation feeds a group
     * a third of the object through each of its three edges, all three copied from one third at a
     * reflector, and so serves it for a third of its source capacity.
     */
    private void cut(LinearModel model, Variable[] x, Variable served, int r, int up) {
        int o = index.requestObject[r];
        BitSet level = new BitSet();
        level.set(index.requestGroup[r]);
        for (int step = 0; step < up; step++) {
            BitSet above = new BitSet();
            level.stream().forEach(v -> {
                for (int in : index.in[v]) {
                    if (variable(in, o) >= 0) {
                        above.set(index.from[in]);
                    }
                }
            });
            level = above;
        }
        if (level.isEmpty() || index.tier[level.nextSetBit(0)] == Tier.SOURCE) {
            return;
        }
        LinearExpression row = new LinearExpression().plus(1, served);
        level.stream().forEach(v -> {
            for (int in : index.in[v]) {
                int feeder = variable(in, o);
                if (feeder >= 0) {
                    row.plus(-1, x[feeder]);
                }
            }
        });
        model.atMost("cut" + up + "_" + r, row, 0);
    }
}
