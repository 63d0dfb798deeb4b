package io.heliograph.circuit.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

import org.junit.jupiter.api.Test;

/**
 * The circuit page as the web UI takes it: an id for the address, one ES module of this bundle, and its
 * parts beside it, which the web bundle serves at /ui/pages/circuit/NAME (so the page imports them as
 * ./circuit/NAME and they import each other as ./NAME). A part named wrongly would load in no browser.
 */
class CircuitPageTest {

    private static final Pattern IMPORT = Pattern.compile("^import .* from '([^']+)';$", Pattern.MULTILINE);
    /** What the web bundle serves beside a page's script: one name of letters, digits and dashes. */
    private static final Pattern PART = Pattern.compile("[a-z0-9-]+\\.(js|css)");
    private static final Set<String> SHELL = Set.of("/ui/dom.js", "/ui/table.js", "/ui/topology/topology-graph.js",
            "/ui/topology/scene.js");

    @Test
    void itsScriptRendersAndEveryPartItImportsIsBesideItUnderAServableName() throws IOException {
        CircuitPage page = new CircuitPage();
        assertEquals("circuit", page.id());
        assertEquals("Circuit", page.title());
        String module = text(page.script());
        assertTrue(module.contains("export async function render(element, api, rest)"), module);
        assertTrue(module.contains("'./circuit/circuit.css'"), "the page brings its stylesheet");
        assertNotNull(CircuitPage.class.getResource("circuit.css"));

        Set<String> seen = new HashSet<>();
        Deque<String> toRead = new ArrayDeque<>(List.of(CircuitPage.SCRIPT));
        while (!toRead.isEmpty()) {
            String name = toRead.pop();
            if (!seen.add(name)) {
                continue;
            }
            URL part = CircuitPage.class.getResource(name);
            assertNotNull(part, name + " beside CircuitPage");
            Matcher imports = IMPORT.matcher(text(part));
            while (imports.find()) {
                String target = imports.group(1);
                if (target.startsWith("/")) {
                    assertTrue(SHELL.contains(target), name + " imports " + target + ", not a module of the shell");
                    continue;
                }
                String prefix = name.equals(CircuitPage.SCRIPT) ? "./circuit/" : "./";
                assertTrue(target.startsWith(prefix), name + " imports " + target + ": parts are at " + prefix + "NAME");
                String file = target.substring(prefix.length());
                assertTrue(PART.matcher(file).matches(), target + " is not a name the web bundle serves");
                toRead.push(file);
            }
        }
        assertTrue(seen.size() >= 4, "the page's parts: " + seen);
    }

    private static String text(URL url) throws IOException {
        assertNotNull(url);
        try (InputStream in = url.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
