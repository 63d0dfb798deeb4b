package io.heliograph.webui.testing;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.heliograph.webui.api.UiPage;

/**
 * A page's modules as the web UI takes them: the page's script, an ES module of its bundle, and its
 * parts beside it, which the web bundle serves at /ui/pages/ID/NAME (so the script imports them as
 * ./ID/NAME and they import each other as ./NAME), or modules of the shell by absolute path. A part
 * named wrongly would load in no browser. The apps' page tests share it (heliograph-webui:tests).
 */
public final class PageModules {

    private static final Pattern IMPORT = Pattern.compile("^import .* from '([^']+)';$", Pattern.MULTILINE);
    /** What the web bundle serves beside a page's script: one name of letters, digits and dashes. */
    private static final Pattern PART = Pattern.compile("[a-z0-9-]+\\.(js|css)");
    /** The shell's modules a page may import. */
    private static final Set<String> SHELL = Set.of("/ui/dom.js", "/ui/table.js", "/ui/chart.js", "/ui/switches/refresh.js",
            "/ui/topology/topology-graph.js",
            "/ui/topology/scene.js");

    private PageModules() {
    }

    /**
     * Follows every import from the page's script ({@code script}, a resource beside {@code page}'s
     * class), checking that each is a module of the shell or a part beside the script under a name
     * the web bundle serves; answers the names read, the script's first.
     */
    public static Set<String> checkImports(UiPage page, String script) throws IOException {
        Set<String> seen = new HashSet<>();
        Deque<String> toRead = new ArrayDeque<>(List.of(script));
        while (!toRead.isEmpty()) {
            String name = toRead.pop();
            if (!seen.add(name)) {
                continue;
            }
            URL part = page.getClass().getResource(name);
            assertNotNull(part, name + " beside " + page.getClass().getSimpleName());
            Matcher imports = IMPORT.matcher(text(part));
            while (imports.find()) {
                String target = imports.group(1);
                if (target.startsWith("/")) {
                    assertTrue(SHELL.contains(target), name + " imports " + target + ", not a module of the shell");
                    continue;
                }
                String prefix = name.equals(script) ? "./" + page.id() + "/" : "./";
                assertTrue(target.startsWith(prefix), name + " imports " + target + ": parts are at " + prefix + "NAME");
                String file = target.substring(prefix.length());
                assertTrue(PART.matcher(file).matches(), target + " is not a name the web bundle serves");
                toRead.push(file);
            }
        }
        return seen;
    }

    /** A module's text. */
    public static String text(URL url) throws IOException {
        assertNotNull(url);
        try (InputStream in = url.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
