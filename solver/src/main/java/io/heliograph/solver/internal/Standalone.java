package io.heliograph.solver.internal;

import io.heliograph.solver.SolverService;
import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URL;

/**
 * The solver outside OSGi, for plain-jar tools (the research simulators) and unit tests: OR-Tools'
 * natives loaded into the JVM, once, and this bundle's own {@link SolverService}. Inside the controller
 * the bundle's component does this; nothing else should.
 */
public final class Standalone {

    private static SolverService service;

    private Standalone() {
    }

    /** The service, the natives loaded from {@code nativesJar} (an ortools-linux-x86-64 jar) on the first call. */
    public static synchronized SolverService load(URL nativesJar) throws IOException {
        if (service == null) {
            NativeLibraries.load(nativesJar);
            service = new OrToolsSolverService();
        }
        return service;
    }

    /** The service, the natives loaded from the ortools-linux-x86-64 jar on this class path. */
    public static SolverService fromClassPath() throws IOException {
        URL library = Standalone.class.getClassLoader().getResource(NativeLibraries.FOLDER + NativeLibraries.JNI_LIBRARY);
        if (library == null) {
            throw new IOException("no ortools-linux-x86-64 jar on the class path");
        }
        return load(((JarURLConnection) library.openConnection()).getJarFileURL());
    }
}
