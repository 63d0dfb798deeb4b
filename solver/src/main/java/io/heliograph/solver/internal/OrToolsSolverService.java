package io.heliograph.solver.internal;

import com.google.ortools.init.OrToolsVersion;
import io.heliograph.solver.CpModel;
import io.heliograph.solver.LinearModel;
import io.heliograph.solver.Solution;
import io.heliograph.solver.SolveOptions;
import io.heliograph.solver.SolverService;
import java.util.Objects;

/** The service: each call builds its OR-Tools model afresh, so calls from several threads never share one. */
final class OrToolsSolverService implements SolverService {

    private final String version = OrToolsVersion.getVersionString();

    /** Only once {@link NativeLibraries} has loaded the natives: the version is already a JNI call. */
    OrToolsSolverService() {
    }

    @Override
    public Solution solve(LinearModel model, SolveOptions options) {
        return LinearSolve.solve(Objects.requireNonNull(model, "model"), Objects.requireNonNull(options, "options"));
    }

    @Override
    public Solution solve(CpModel model, SolveOptions options) {
        return CpSatSolve.solve(Objects.requireNonNull(model, "model"), Objects.requireNonNull(options, "options"));
    }

    @Override
    public String version() {
        return version;
    }
}
