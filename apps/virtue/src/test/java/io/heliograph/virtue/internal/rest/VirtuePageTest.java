package io.heliograph.virtue.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.heliograph.webui.testing.PageModules;

/**
 * The Virtue page as the web UI takes it: an id for the address, one ES module of this bundle, and its
 * parts beside it, which the web bundle serves at /ui/pages/virtue/NAME (so the page imports them as
 * ./virtue/NAME and they import each other as ./NAME). A part named wrongly would load in no browser.
 */
class VirtuePageTest {

    @Test
    void itsScriptRendersAndEveryPartItImportsIsBesideItUnderAServableName() throws IOException {
        VirtuePage page = new VirtuePage();
        assertEquals("virtue", page.id());
        assertEquals("Virtue", page.title());
        String module = PageModules.text(page.script());
        assertTrue(module.contains("export async function render(element, api, rest)"), module);
        assertTrue(module.contains("'./virtue/virtue.css'"), "the page brings its stylesheet");
        assertNotNull(VirtuePage.class.getResource("virtue.css"));

        Set<String> seen = PageModules.checkImports(page, VirtuePage.SCRIPT);
        assertTrue(seen.size() >= 8, "the page's parts: " + seen);
    }
}
