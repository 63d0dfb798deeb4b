package io.heliograph.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/** An OSGi bundle jar: reading its manifest's headers, and rebuilding it with another version. */
public final class BundleJar {

    private static final Attributes.Name BUNDLE_VERSION = new Attributes.Name("Bundle-Version");
    private static final Attributes.Name BUNDLE_SYMBOLIC_NAME = new Attributes.Name("Bundle-SymbolicName");
    private static final Attributes.Name BUNDLE_NAME = new Attributes.Name("Bundle-Name");
    private static final Attributes.Name FRAGMENT_HOST = new Attributes.Name("Fragment-Host");

    private BundleJar() {
    }

    public static String version(Path jar) {
        return mainAttribute(jar, BUNDLE_VERSION);
    }

    public static String symbolicName(Path jar) {
        return mainAttribute(jar, BUNDLE_SYMBOLIC_NAME).split(";")[0].strip();
    }

    /** The Bundle-Name, the name the console's {@code lb} shows. */
    public static String name(Path jar) {
        return mainAttribute(jar, BUNDLE_NAME);
    }

    /** Whether the bundle is a fragment (has a Fragment-Host): it resolves but never becomes Active. */
    public static boolean isFragment(Path jar) {
        return optionalMainAttribute(jar, FRAGMENT_HOST) != null;
    }

    /**
     * Writes to {@code target} a copy of bundle {@code source} whose manifest says Bundle-Version
     * {@code version}; every other entry is copied unchanged.
     */
    public static void rebuildWithVersion(Path source, Path target, String version) {
        try (JarFile jar = new JarFile(source.toFile())) {
            Manifest manifest = new Manifest(jar.getManifest());
            manifest.getMainAttributes().put(BUNDLE_VERSION, version);
            try (OutputStream file = Files.newOutputStream(target);
                 JarOutputStream out = new JarOutputStream(file, manifest)) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    JarEntry entry = entries.nextElement();
                    if (entry.getName().equalsIgnoreCase(JarFile.MANIFEST_NAME)) {
                        continue;   // written first by JarOutputStream, with the new version
                    }
                    out.putNextEntry(new JarEntry(entry.getName()));
                    try (InputStream in = jar.getInputStream(entry)) {
                        in.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rebuild " + source + " as " + target, e);
        }
    }

    /** {@code 0.1.0.202611211611} -> {@code 0.1.1.<qualifier>}: a different, higher OSGi version. */
    public static String nextMicro(String version, String qualifier) {
        String[] parts = version.split("\\.");
        int major = Integer.parseInt(parts[0]);
        int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
        int micro = parts.length > 2 ? Integer.parseInt(parts[2]) : 0;
        return major + "." + minor + "." + (micro + 1) + "." + qualifier;
    }

    private static String mainAttribute(Path jar, Attributes.Name name) {
        String value = optionalMainAttribute(jar, name);
        if (value == null) {
            throw new IllegalArgumentException(jar + " has no " + name + " in its manifest: not a bundle");
        }
        return value;
    }

    /** The attribute's value, or null where the manifest (or the attribute) is missing. */
    private static String optionalMainAttribute(Path jar, Attributes.Name name) {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String value = manifest == null ? null : manifest.getMainAttributes().getValue(name);
            return value == null ? null : value.strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
    }
}
