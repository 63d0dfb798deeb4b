package io.heliograph.circuit.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.heliograph.webui.testing.PageModules;

/**
 * The circuit page as the web UI takes it: an id for the address, one ES module of this bundle, and its
 * parts beside it, which the web bundle serves at /ui/pages/circuit/NAME (so the page imports them as
 * ./circuit/NAME and they import each other as ./NAME). A part named wrongly would load in no browser.
 */
class CircuitPageTest {

    @Test
    void itsScriptRendersAndEveryPartItImportsIsBesideItUnderAServableName() throws IOException {
        CircuitPage page = new CircuitPage();
        assertEquals("circuit", page.id());
        assertEquals("Circuit", page.title());
        String module = PageModules.text(page.script());
        assertTrue(module.contains("export async function render(element, api, rest)"), module);
        assertTrue(module.contains("'./circuit/circuit.css'"), "the page brings its stylesheet");
        assertNotNull(CircuitPage.class.getResource("circuit.css"));

        Set<String> seen = PageModules.checkImports(page, CircuitPage.SCRIPT);
        assertTrue(seen.size() >= 4, "the page's parts: " + seen);
    }
}
