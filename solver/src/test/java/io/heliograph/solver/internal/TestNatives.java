package io.heliograph.solver.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URL;

/** The ortools-linux-x86-64 jar of the test class path: what the bundle carries as its natives jar. */
final class TestNatives {

    private TestNatives() {
    }

    static URL jar() {
        URL library = TestNatives.class.getClassLoader()
                .getResource(NativeLibraries.FOLDER + NativeLibraries.JNI_LIBRARY);
        if (library == null) {
            throw new IllegalStateException("ortools-linux-x86-64 is not on the test class path");
        }
        try {
            return ((JarURLConnection) library.openConnection()).getJarFileURL();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Loads the natives into this test JVM (once: later calls find them loaded). */
    static void load() {
        try {
            NativeLibraries.load(jar());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
