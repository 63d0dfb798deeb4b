package io.heliograph.vdn.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.webui.testing.PageModules;
import java.io.IOException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The VDN page as the web UI takes it: an id for the address, one ES module of this bundle, and its parts
 * beside it, which the web bundle serves at /ui/pages/vdn/NAME. A part named wrongly would load in no
 * browser.
 */
class VdnPageTest {

    @Test
    void itsScriptRendersAndEveryPartItImportsIsBesideItUnderAServableName() throws IOException {
        VdnPage page = new VdnPage();
        assertEquals("vdn", page.id());
        assertEquals("VDN", page.title());
        String module = PageModules.text(page.script());
        assertTrue(module.contains("export async function render(element, api)"), module);
        assertTrue(module.contains("'./vdn/vdn.css'"), "the page brings its stylesheet");
        assertNotNull(VdnPage.class.getResource("vdn.css"));

        Set<String> seen = PageModules.checkImports(page, VdnPage.SCRIPT);
        assertTrue(seen.size() >= 3, "the page's parts: " + seen);
    }
}
