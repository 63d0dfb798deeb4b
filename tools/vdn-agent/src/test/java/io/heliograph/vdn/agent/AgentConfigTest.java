package io.heliograph.vdn.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.core.json.Json;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AgentConfigTest {

    private static final String EDGE = "{\"cluster\":\"E1\",\"tier\":\"edge\",\"listen\":\"127.0.0.1:0\","
            + "\"parents\":[{\"id\":\"R1\",\"url\":\"http://127.0.0.1:9001\",\"capacityKbps\":75000}],"
            + "\"controller\":\"http://127.0.0.1:8080/\",\"user\":\"admin\",\"password\":\"pw\",\"key\":\"k\"";

    @Test
    void anEdgeWithDefaults() {
        AgentConfig config = AgentConfig.read(Json.parse(EDGE + "}"));
        assertEquals(AgentConfig.Tier.EDGE, config.tier());
        assertEquals(AgentConfig.Mode.HYBRID, config.mode());
        assertEquals(List.of(URI.create("http://127.0.0.1:8080")), config.controllers(), "a trailing slash is dropped");
        assertEquals(2, config.chunkSeconds());
        assertEquals(1000, config.dvMillis());
        assertEquals(1000, config.reportMillis());
        assertEquals(500, config.ribPollMillis());
        assertEquals(0, config.dropRibPercent());
        assertEquals("R1->E1", config.linkFrom("R1"));
        assertEquals(75000, config.parent("R1").capacityKbps());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a tier that is none        | "tier":"middle"                           | $.tier: must be one of source, reflector, edge, not "middle"
            a mode that is none        | "mode":"anarchy"                          | $.mode: must be one of hybrid, central, distributed
            a port out of range        | "listen":"127.0.0.1:70000"                | $.listen: the port must be 0 to 65535
            a listen without a port    | "listen":"localhost"                      | $.listen: must be host:port
            a share above 100 %        | "dropRibPercent":101                      | $.dropRibPercent: must be from 0 to 100, not 101
            a fraction of a second     | "dvMillis":0.5                            | only whole numbers
            an unknown member          | "colour":"red"                            | $.colour: unknown member
            a controller URL that is not one | "controller":"ftp://x"              | $.controller: must be an http:// URL
            one of the instances not a URL | "controller":["http://h:1","h:2"]   | $.controller[1]: must be an http:// URL
            an instance twice          | "controller":"http://h:1,http://h:1/"     | $.controller: names an instance twice
            an empty list of instances | "controller":[]                           | $.controller: an empty list
            a parent without capacity  | "parents":[{"id":"R1","url":"http://h:1"}] | $.parents[0].capacityKbps: missing
            a parent twice             | "parents":[{"id":"R1","url":"http://h:1","capacityKbps":1},{"id":"R1","url":"http://h:2","capacityKbps":1}] | $.parents[1].id: R1 appears twice
            an edge without parents    | "parents":[]                              | $.parents: an edge needs at least one parent
            an edge with children      | "children":[{"id":"X","url":"http://h:1"}] | $.children: an edge serves clients, not clusters
            an id with a slash         | "cluster":"E/1"                           | $.cluster: an id has no '/'
            """)
    void aBadConfigurationIsRefusedNamingTheField(String what, String member, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read(member));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void aHybridAgentNeedsItsControllerAndASourceItsVideos() {
        IllegalArgumentException noController = assertThrows(IllegalArgumentException.class, () -> AgentConfig.read(Json.parse(
                "{\"cluster\":\"R1\",\"tier\":\"reflector\",\"listen\":\"0.0.0.0:0\","
                        + "\"parents\":[{\"id\":\"S1\",\"url\":\"http://h:1\",\"capacityKbps\":1}]}")));
        assertTrue(noController.getMessage().startsWith("$.controller: missing"), noController.getMessage());
        IllegalArgumentException noVideos = assertThrows(IllegalArgumentException.class, () -> AgentConfig.read(Json.parse(
                "{\"cluster\":\"S1\",\"tier\":\"source\",\"listen\":\"0.0.0.0:0\",\"bitrates\":[200]}")));
        assertTrue(noVideos.getMessage().startsWith("$.videos: missing"), noVideos.getMessage());
        AgentConfig source = AgentConfig.read(Json.parse(
                "{\"cluster\":\"S1\",\"tier\":\"source\",\"listen\":\"0.0.0.0:0\",\"videoCount\":3,\"bitrates\":[200,600]}"));
        assertEquals(java.util.List.of("v0", "v1", "v2"), source.videos());
    }

    @Test
    void aFileIsReadWithTheFlagsOverridingItAndItsNameInEveryRefusal(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("e1.json");
        Files.writeString(file, EDGE + "}", StandardCharsets.UTF_8);
        AgentConfig config = AgentConfig.read(file, Map.of("cluster", "E7", "controller", "http://10.0.0.1:8080"));
        assertEquals("E7", config.cluster());
        assertEquals(List.of(URI.create("http://10.0.0.1:8080")), config.controllers());
        AgentConfig instances = AgentConfig.read(file, Map.of("controller", "http://10.0.0.1:8080, http://10.0.0.2:8080/"));
        assertEquals(List.of(URI.create("http://10.0.0.1:8080"), URI.create("http://10.0.0.2:8080")), instances.controllers(),
                "--controller takes a cluster's instances separated by commas");
        Files.writeString(file, EDGE, StandardCharsets.UTF_8);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AgentConfig.read(file, Map.of()));
        assertTrue(e.getMessage().startsWith(file + ": "), e.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> AgentConfig.read(dir.resolve("none.json"), Map.of()));
        assertTrue(missing.getMessage().contains("cannot read"), missing.getMessage());
    }

    private static AgentConfig read(String member) {
        return AgentConfig.read(Json.parse(EDGE + "," + member + "}"));
    }
}
