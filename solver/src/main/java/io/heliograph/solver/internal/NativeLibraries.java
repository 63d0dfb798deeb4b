package io.heliograph.solver.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads OR-Tools' native libraries, once per class loader and so once per JVM while the solver bundle
 * is not updated. A native library binds to the class loader of the class that loads it, and OR-Tools'
 * JNI classes find their methods only in that loader: this class, OR-Tools' Java side and protobuf all
 * live in the solver bundle's one class loader. (OR-Tools' own Loader cannot serve here: it lists the
 * natives through a jar: or file: URL of the class path, and a bundle's resources are neither.)
 *
 * <p>The natives jar (ortools-linux-x86-64) is extracted to a fresh temporary directory, where the JNI
 * library's RUNPATH ($ORIGIN) finds the libraries it needs; once loaded, the files are deleted (the
 * mapped libraries stay), so nothing is left behind.
 */
final class NativeLibraries {

    static final String PLATFORM = "linux-x86-64";
    static final String FOLDER = "ortools-" + PLATFORM + "/";
    static final String JNI_LIBRARY = "libjniortools.so";

    private static final Logger LOG = LoggerFactory.getLogger(NativeLibraries.class);

    private static boolean loaded;

    private NativeLibraries() {
    }

    /**
     * Loads the natives from {@code nativesJar} unless this class loader already has them.
     *
     * @return the number of library files loaded now, 0 where they were loaded before
     * @throws IOException where the jar cannot be read or lacks the JNI library
     * @throws UnsupportedOperationException on another platform than Linux x86-64
     * @throws UnsatisfiedLinkError where the system refuses the libraries (e.g. a too old glibc)
     */
    static synchronized int load(URL nativesJar) throws IOException {
        if (loaded) {
            return 0;
        }
        checkPlatform(System.getProperty("os.name"), System.getProperty("os.arch"));
        Path directory = Files.createTempDirectory("heliograph-ortools-");
        try {
            List<Path> files = extract(nativesJar, directory);
            System.load(directory.resolve(JNI_LIBRARY).toString());
            loaded = true;
            return files.size();
        } finally {
            try {
                deleteAll(directory);
            } catch (IOException e) {
                LOG.warn("cannot delete the extracted OR-Tools natives in {}: {}", directory, e.toString());
            }
        }
    }

    /** Fails unless {@code os}/{@code arch} (the JVM's os.name and os.arch) is the natives' platform. */
    static void checkPlatform(String os, String arch) {
        boolean x8664 = "amd64".equals(arch) || "x86_64".equals(arch);
        if (!"Linux".equals(os) || !x8664) {
            throw new UnsupportedOperationException("the solver bundle carries OR-Tools' natives for " + PLATFORM
                    + " only; this JVM runs on " + os + " " + arch);
        }
    }

    /** Writes every file of the jar's {@link #FOLDER} into {@code directory}; fails without the JNI library. */
    static List<Path> extract(URL nativesJar, Path directory) throws IOException {
        if (nativesJar == null) {
            throw new IOException("no OR-Tools natives jar in the solver bundle");
        }
        List<Path> files = new ArrayList<>();
        try (InputStream in = nativesJar.openStream(); JarInputStream jar = new JarInputStream(in)) {
            for (JarEntry entry = jar.getNextJarEntry(); entry != null; entry = jar.getNextJarEntry()) {
                String name = entry.getName();
                if (entry.isDirectory() || !name.startsWith(FOLDER) || name.indexOf('/', FOLDER.length()) >= 0) {
                    continue;
                }
                Path file = directory.resolve(name.substring(FOLDER.length()));
                Files.copy(jar, file);
                files.add(file);
            }
        }
        if (!Files.isRegularFile(directory.resolve(JNI_LIBRARY))) {
            throw new IOException("no " + FOLDER + JNI_LIBRARY + " in " + nativesJar);
        }
        return files;
    }

    private static void deleteAll(Path directory) throws IOException {
        try (var files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(directory);
    }
}
