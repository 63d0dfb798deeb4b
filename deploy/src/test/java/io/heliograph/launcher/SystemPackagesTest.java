package io.heliograph.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** What the system bundle exports from the class path: the packages with their jar's versions, no directive. */
class SystemPackagesTest {

    @Test
    void directivesAndOtherAttributesAreLeftOut() {
        assertEquals(List.of("a.b;version=\"1.2\"", "c;version=\"3\"", "d;version=\"3\"", "e"),
                SystemPackages.packages("a.b;uses:=\"x.y,z\";version=\"1.2\", c;d;version=3;mandatory:=\"q\",e"));
    }

    @Test
    void slf4jAndLog4jAtTheirJarsVersions() {
        List<String> exports = List.of(SystemPackages.logging().split(","));
        assertTrue(exports.contains("org.slf4j;version=\"1.7.36\""), exports.toString());
        assertTrue(exports.contains("org.slf4j.spi;version=\"1.7.36\""), exports.toString());
        assertTrue(exports.stream().anyMatch(e -> e.startsWith("org.apache.logging.log4j;version=\"2.")), exports.toString());
        assertTrue(exports.stream().anyMatch(e -> e.startsWith("org.apache.logging.log4j.core.config;version=\"2.")),
                exports.toString());
        assertTrue(exports.stream().noneMatch(e -> e.contains("uses:=")), exports.toString());
    }
}
