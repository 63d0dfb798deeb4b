package io.heliograph.testbed;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A small OSGi bundle built by a test from Java sources: compiled with the JDK's compiler against the
 * framework and the bundles of a distribution (so it sees exactly the packages an app bundle sees),
 * and packed with the manifest headers the test gives. For tests that need an app the distribution
 * does not have, e.g. one registering a REST resource or a web UI page.
 */
public final class SourceBundle {

    private SourceBundle() {
    }

    /**
     * Compiles {@code sources} (fully qualified class name to source text) against {@code distribution}'s
     * framework and bundles, and writes a bundle jar to {@code target} whose manifest has {@code headers}
     * plus Bundle-ManifestVersion 2.
     */
    public static Path build(ControllerDistribution distribution, Path target, Map<String, String> headers,
            Map<String, String> sources) {
        return build(distribution, target, headers, sources, Map.of());
    }

    /** As {@link #build(ControllerDistribution, Path, Map, Map)}, with {@code resources} (jar path to text) packed too. */
    public static Path build(ControllerDistribution distribution, Path target, Map<String, String> headers,
            Map<String, String> sources, Map<String, String> resources) {
        try {
            Path work = Files.createTempDirectory("source-bundle-");
            Path src = work.resolve("src");
            Path classes = work.resolve("classes");
            Files.createDirectories(classes);
            List<String> arguments = new ArrayList<>(List.of("-d", classes.toString(), "-parameters",
                    "--release", "17", "-proc:none", "-classpath", classpath(distribution)));
            for (Map.Entry<String, String> source : sources.entrySet()) {
                Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
                Files.createDirectories(file.getParent());
                Files.writeString(file, source.getValue());
                arguments.add(file.toString());
            }
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            if (javac == null) {
                throw new IllegalStateException("no Java compiler in " + System.getProperty("java.home"));
            }
            ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
            int status = javac.run(null, diagnostics, diagnostics, arguments.toArray(String[]::new));
            if (status != 0) {
                throw new IllegalStateException("compiling the test bundle failed:\n" + diagnostics);
            }
            for (Map.Entry<String, String> resource : resources.entrySet()) {
                Path file = classes.resolve(resource.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, resource.getValue());
            }
            jar(classes, target, headers);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the test bundle " + target, e);
        }
    }

    private static String classpath(ControllerDistribution distribution) throws IOException {
        List<String> entries = new ArrayList<>();
        for (Path dir : List.of(distribution.home().resolve("lib"), distribution.bundles())) {
            try (Stream<Path> jars = Files.list(dir)) {
                jars.filter(p -> p.toString().endsWith(".jar")).map(Path::toString).sorted().forEach(entries::add);
            }
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    private static void jar(Path classes, Path target, Map<String, String> headers) throws IOException {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        headers.forEach(main::putValue);
        Files.createDirectories(target.toAbsolutePath().getParent());
        Path temporary = target.resolveSibling(target.getFileName() + ".part");
        try (OutputStream file = Files.newOutputStream(temporary);
             JarOutputStream out = new JarOutputStream(file, manifest);
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        // Whole, or not at all: a watcher of target's folder must never install half a jar.
        Files.move(temporary, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
}
