/**
 * The solver as apps see it: linear and mixed-integer models ({@link io.heliograph.solver.LinearModel}),
 * CP-SAT models ({@link io.heliograph.solver.CpModel}), and {@link io.heliograph.solver.SolverService},
 * which solves them with OR-Tools in the io.heliograph.solver bundle. Only these plain Java types cross
 * the bundle boundary: an app never binds to an OR-Tools class (or to the native library, which belongs
 * to the solver bundle's class loader), so it can be updated from hot/ like any other app.
 */
package io.heliograph.solver;
