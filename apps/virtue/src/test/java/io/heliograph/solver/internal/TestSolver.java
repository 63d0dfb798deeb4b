package io.heliograph.solver.internal;

import io.heliograph.solver.SolverService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URL;

/**
 * The solver bundle's own {@link SolverService} for Virtue's unit tests, outside OSGi: OR-Tools' natives
 * loaded into this JVM from the ortools-linux-x86-64 jar of the test class path, as the solver module's
 * own tests load them. It lives in the solver's internal package only to reach its package-private
 * implementation; nothing of it ships.
 */
public final class TestSolver {

    private static SolverService service;

    private TestSolver() {
    }

    /** The service, the natives loaded on the first call. */
    public static synchronized SolverService get() {
        if (service == null) {
            URL library = TestSolver.class.getClassLoader().getResource(NativeLibraries.FOLDER + NativeLibraries.JNI_LIBRARY);
            if (library == null) {
                throw new IllegalStateException("ortools-linux-x86-64 is not on the test class path");
            }
            try {
                NativeLibraries.load(((JarURLConnection) library.openConnection()).getJarFileURL());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            service = new OrToolsSolverService();
        }
        return service;
    }
}
