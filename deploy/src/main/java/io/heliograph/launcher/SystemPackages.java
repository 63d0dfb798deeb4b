package io.heliograph.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packages of the launcher's class path that the system bundle exports to the bundles
 * ({@code org.osgi.framework.system.packages.extra}): SLF4J, so that every bundle logs through the
 * one binding on the class path, and the Log4j API and core, which core's log level service uses.
 * Each is exported at the version its own jar's manifest gives it, so the bundles' imports (which bnd
 * made from the same jars) match.
 */
final class SystemPackages {

    /** One clause of an Export-Package header: the package, then attributes and directives. */
    private static final Pattern VERSION = Pattern.compile(";\\s*version\\s*=\\s*\"?([^\";,]+)\"?");

    private SystemPackages() {
    }

    /** The value of {@code org.osgi.framework.system.packages.extra}. */
    static String logging() {
        List<String> exports = new ArrayList<>();
        exports.addAll(exportsOf(org.slf4j.LoggerFactory.class));
        exports.addAll(exportsOf(org.apache.logging.log4j.LogManager.class));
        exports.addAll(exportsOf(org.apache.logging.log4j.core.LoggerContext.class));
        return String.join(",", exports);
    }

    /** The packages the jar of {@code anchor} exports as a bundle, each with its version and no directive. */
    static List<String> exportsOf(Class<?> anchor) {
        Path jar;
        try {
            jar = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot tell which jar holds " + anchor.getName(), e);
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String header = manifest == null ? null : manifest.getMainAttributes().getValue("Export-Package");
            if (header == null) {
                throw new IllegalStateException(jar + " exports no package (no Export-Package in its manifest)");
            }
            return packages(header);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the manifest of " + jar, e);
        }
    }

    /**
     * {@code a.b;uses:="x,y";version="1.2",c;d;version=3} → {@code a.b;version="1.2"}, {@code c;version="3"},
     * {@code d;version="3"}: the directives (uses, ...) and other attributes are left out.
     */
    static List<String> packages(String header) {
        List<String> packages = new ArrayList<>();
        for (String clause : clauses(header)) {
            Matcher version = VERSION.matcher(clause);
            String suffix = version.find() ? ";version=\"" + version.group(1).strip() + "\"" : "";
            for (String part : clause.split(";")) {
                if (part.contains("=")) {
                    break;  // the package names come first, then attributes and directives
                }
                if (!part.isBlank()) {
                    packages.add(part.strip() + suffix);
                }
            }
        }
        return packages;
    }

    /** The header split at the commas that are not inside quotes. */
    private static List<String> clauses(String header) {
        List<String> clauses = new ArrayList<>();
        StringBuilder clause = new StringBuilder();
        boolean quoted = false;
        for (char c : header.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == ',' && !quoted) {
                clauses.add(clause.toString());
                clause.setLength(0);
            } else {
                clause.append(c);
            }
        }
        if (!clause.toString().isBlank()) {
            clauses.add(clause.toString());
        }
        return clauses;
    }
}
