package io.heliograph.sims.kit;

import io.heliograph.solver.SolverService;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * The solver for a simulator (Virtue's Model, VDN's central optimiser): the controller's own solver
 * bundle, run outside OSGi. A simulator's jar carries only the solver's API. The implementation, OR-Tools and its natives are those of the
 * distribution's {@code bundles/heliograph-solver-*.jar}, whose embedded jars are unpacked into a
 * temporary folder and loaded beside this jar, so the simulator adds no second copy of OR-Tools (25 MB)
 * to the distribution per simulator.
 */
public final class Solvers {

    private static final String STANDALONE = "io.heliograph.solver.internal.Standalone";

    private Solvers() {
    }

    /** The solver from this class path (tests, a development run), else from the distribution this jar is in. */
    public static SolverService find() throws IOException {
        try {
            Class<?> standalone = Class.forName(STANDALONE, true, Solvers.class.getClassLoader());
            return invoke(standalone, "fromClassPath", new Class<?>[0]);
        } catch (ClassNotFoundException e) {
            return fromDistribution(distributionHome());
        }
    }

    /** The solver of the distribution at {@code home}: its solver bundle's implementation and natives. */
    public static SolverService fromDistribution(Path home) throws IOException {
        Path bundle = only(home.resolve("bundles"), "heliograph-solver-*.jar");
        Path logging = only(home.resolve("lib"), "slf4j-api-*.jar");
        Path folder = Files.createTempDirectory("heliograph-sim-");
        folder.toFile().deleteOnExit();
        List<URL> path = new ArrayList<>(List.of(bundle.toUri().toURL(), logging.toUri().toURL()));
        Path natives;
        try (JarFile jar = new JarFile(bundle.toFile())) {
            path.add(unpack(jar, "lib/ortools-java.jar", folder).toUri().toURL());
            path.add(unpack(jar, "lib/protobuf-java.jar", folder).toUri().toURL());
            natives = unpack(jar, "natives/ortools-linux-x86-64.jar", folder);
        }
        URLClassLoader loader = new URLClassLoader(path.toArray(URL[]::new), Solvers.class.getClassLoader());
        try {
            return invoke(loader.loadClass(STANDALONE), "load", new Class<?>[] {URL.class}, natives.toUri().toURL());
        } catch (ClassNotFoundException e) {
            throw new IOException(bundle + " has no " + STANDALONE, e);
        }
    }

    private static SolverService invoke(Class<?> standalone, String method, Class<?>[] types, Object... args)
            throws IOException {
        try {
            return (SolverService) standalone.getMethod(method, types).invoke(null, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(cause.toString(), cause);
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IOException("cannot start the solver: " + e, e);
        }
    }

    /** The distribution this jar was started from: the folder above its {@code tools/}. */
    private static Path distributionHome() throws IOException {
        try {
            Path jar = Path.of(Solvers.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path tools = jar.getParent();
            if (tools == null || tools.getParent() == null || !tools.getFileName().toString().equals("tools")) {
                throw new IOException(jar + " is not in a distribution's tools/");
            }
            return tools.getParent();
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
    }

    private static Path only(Path folder, String glob) throws IOException {
        try (DirectoryStream<Path> found = Files.newDirectoryStream(folder, glob)) {
            for (Path path : found) {
                return path;
            }
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException("no " + folder, e);
        }
        throw new IOException("no " + glob + " in " + folder);
    }

    private static Path unpack(JarFile jar, String entry, Path folder) throws IOException {
        ZipEntry found = jar.getEntry(entry);
        if (found == null) {
            throw new IOException(jar.getName() + " has no " + entry);
        }
        Path target = folder.resolve(Path.of(entry).getFileName());
        try (InputStream in = jar.getInputStream(found)) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        target.toFile().deleteOnExit();
        return target;
    }
}
