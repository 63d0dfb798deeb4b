package io.heliograph.staticflows.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.internal.ConnectedStaticFlows;

/**
 * Random and mutated bodies against every static-entry write endpoint, the API's and Floodlight's:
 * none may fail with a server error, and none that is refused may change what is stored or what is
 * on the switch. The seed is printed; {@code -Dfuzz.seed=...} replays a run.
 */
class StaticEntryWriteFuzzTest {

    private static final int REQUESTS = 1500;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<Integer> ANSWERS = Set.of(200, 201, 400, 404, 409, 502);

    private static final List<String> KEYS = List.of("switch", "name", "entry_type", "table", "priority",
            "idle_timeout", "hard_timeout", "cookie", "flags", "active", "actions", "instruction_apply_actions",
            "instruction_write_actions", "instruction_clear_actions", "instruction_goto_table", "instruction_goto_meter",
            "instruction_write_metadata", "in_port", "eth_type", "eth_src", "eth_dst", "eth_vlan_vid", "ip_proto",
            "ipv4_src", "ipv4_dst", "ipv6_src", "tcp_dst", "udp_src", "icmpv6_type", "ipv6_nd_target", "arp_opcode",
            "mpls_label", "group_id", "group_type", "group_buckets", "bucket_actions", "bucket_weight",
            "bucket_watch_port", "meter_id", "meter_flags", "meter_bands", "rate", "burst_size", "type", "prec_level",
            "bogus", "");
    private static final List<String> TEXTS = List.of("0x0800", "0x86dd", "0x0806", "6", "17", "58", "135",
            "10.0.0.1", "10.0.0.0/8", "10.0.0.1/255.255.0.0", "fd00::1", "00:00:00:00:00:01",
            "ff:ff:ff:ff:ff:ff/01:00:00:00:00:00", "output=2", "output=99", "output=controller", "output=2,output=3",
            "group=1", "group=-1", "set_field=eth_dst->00:00:00:00:00:02", "set_field=eth_type->0x0800",
            "push_vlan=0x8100,set_field=eth_vlan_vid->5", "drop", "all", "select", "indirect", "fast_failover", "kbps",
            "burst", "flow", "group", "meter", "FLOW", "00:00:00:00:00:00:00:01", "0x1", "1", "2", "all", "-1",
            "4294967296", "18446744073709551616", "1e3", "0x", "", " ", "web", "g1", "m1", "a b", "\u00e9\u4e2d",
            "'", "\"", "\\", "\u0000", "x".repeat(300), "0x10/0xff", "send_flow_rem", "reset_counts");
    private static final List<String> PATHS = List.of("/api/v1/staticflows/flows", "/api/v1/staticflows/groups",
            "/api/v1/staticflows/meters", "/wm/staticentrypusher/json", "/wm/staticflowpusher/json",
            "/wm/staticflowentrypusher/json");


    @Test
    void noServerErrorAndRefusedRequestsChangeNothing() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        System.out.println("StaticEntryWriteFuzzTest seed " + seed + " (replay with -Dfuzz.seed=" + seed + ")");
        Random random = new Random(seed);
        ConnectedStaticFlows flows = new ConnectedStaticFlows();
        MockMvc mvc = MockMvcBuilders.standaloneSetup(new StaticEntriesResource(flows.service()),
                new StaticEntryPusherResource(flows.service())).build();
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (int i = 0; i < REQUESTS; i++) {
            String body = body(random);
            MockHttpServletRequestBuilder request = request(random).contentType(MediaType.APPLICATION_JSON).content(body);
            List<EntryStatus> before = flows.service().list();
            String onSwitch = flows.onSwitch();
            MvcResult result;
            try {
                result = mvc.perform(request).andReturn();
            } catch (Exception e) {
                fail("request " + i + " (seed " + seed + ") failed on the server: " + e + "\nbody: " + body, e);
                return;
            }
            int status = result.getResponse().getStatus();
            statuses.merge(status, 1, Integer::sum);
            String what = "request " + i + " (seed " + seed + ") " + describe(result) + "\nbody: " + body;
            assertTrue(ANSWERS.contains(status), "status " + status + " for " + what);
            if (status >= 400) {
                assertEquals(before, flows.service().list(), "a refused request changed what is stored: " + what);
                assertEquals(onSwitch, flows.onSwitch(), "a refused request changed the switch: " + what);
            }
        }
        System.out.println("StaticEntryWriteFuzzTest: " + REQUESTS + " requests, answers by status " + statuses
                + ", " + flows.service().list().size() + " entries stored at the end");
        assertTrue(statuses.getOrDefault(200, 0) + statuses.getOrDefault(201, 0) > 0,
                "some mutations stay valid and are accepted " + statuses);
    }

    private static String describe(MvcResult result) {
        return result.getRequest().getMethod() + " " + result.getRequest().getRequestURI() + " -> "
                + result.getResponse().getStatus() + " " + result.getResolvedException();
    }

    private static MockHttpServletRequestBuilder request(Random random) {
        String path = PATHS.get(random.nextInt(PATHS.size()));
        if (path.startsWith("/wm/")) {
            return random.nextInt(4) == 0 ? delete(path) : post(path);
        }
        String name = random.nextBoolean() ? pick(random, List.of("web", "g1", "m1")) : pick(random, TEXTS);
        String entry = path + "/" + pick(random, List.of("1", "0x1", "2", "00:00:00:00:00:00:00:01", "x")) + "/"
                + (name.isBlank() || name.contains("/") || name.contains("\\") ? "web" : name);
        return switch (random.nextInt(5)) {
            case 0 -> put(entry);
            case 1 -> delete(entry);
            default -> post(path);
        };
    }

    /** A valid entry mutated a few times, its JSON text damaged now and then, or a random JSON value. */
    private static String body(Random random) throws Exception {
        if (random.nextInt(20) == 0) {
            return JSON.writeValueAsString(value(random, 3));
        }
        Map<String, Object> entry = seed(random);
        int mutations = random.nextInt(4);
        for (int i = 0; i < mutations; i++) {
            mutate(random, entry);
        }
        String text = JSON.writeValueAsString(entry);
        if (random.nextInt(8) == 0) {
            text = damage(random, text);
        }
        return text;
    }

    private static Map<String, Object> seed(Random random) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("switch", pick(random, List.of("00:00:00:00:00:00:00:01", "1", "0x1", "00:00:00:00:00:00:00:02")));
        switch (random.nextInt(4)) {
            case 0 -> {
                m.put("entry_type", "group");
                m.put("name", "g1");
                m.put("group_id", 1);
                m.put("group_type", "select");
                m.put("group_buckets", new ArrayList<>(List.of(
                        new LinkedHashMap<>(Map.of("bucket_weight", 1, "bucket_actions", "output=3")),
                        new LinkedHashMap<>(Map.of("bucket_weight", 2, "bucket_actions", "output=4")))));
            }
            case 1 -> {
                m.put("entry_type", "meter");
                m.put("name", "m1");
                m.put("meter_id", 1);
                m.put("meter_flags", new ArrayList<>(List.of("kbps")));
                m.put("meter_bands", new ArrayList<>(List.of(new LinkedHashMap<>(Map.of("type", "drop", "rate", 1000)))));
            }
            default -> {
                m.put("name", "web");
                m.put("priority", 100);
                m.put("in_port", "1");
                m.put("eth_type", "0x0800");
                m.put("ip_proto", "6");
                m.put("tcp_dst", "80");
                m.put("actions", "output=2");
            }
        }
        return m;
    }

    @SuppressWarnings("unchecked")
    private static void mutate(Random random, Map<String, Object> entry) {
        List<String> keys = new ArrayList<>(entry.keySet());
        String key = keys.isEmpty() ? pick(random, KEYS) : keys.get(random.nextInt(keys.size()));
        switch (random.nextInt(6)) {
            case 0 -> entry.remove(key);
            case 1 -> entry.put(key, value(random, 2));
            case 2 -> entry.put(pick(random, KEYS), value(random, 2));
            case 3 -> entry.put(key, pick(random, TEXTS));
            case 4 -> {
                Object value = entry.remove(key);
                entry.put(pick(random, KEYS), value);
            }
            default -> {
                for (Object v : entry.values()) {
                    if (v instanceof List<?> list && !list.isEmpty()
                            && list.get(random.nextInt(list.size())) instanceof Map<?, ?> element) {
                        mutate(random, (Map<String, Object>) element);
                        return;
                    }
                }
                entry.put(key, pick(random, TEXTS));
            }
        }
    }

    private static Object value(Random random, int depth) {
        int choice = random.nextInt(depth > 0 ? 10 : 8);
        return switch (choice) {
            case 0 -> null;
            case 1 -> random.nextBoolean();
            case 2 -> random.nextInt(70000) - 5;
            case 3 -> random.nextLong();
            case 4 -> random.nextDouble() * 1e6;
            case 5, 6, 7 -> pick(random, TEXTS);
            case 8 -> {
                List<Object> list = new ArrayList<>();
                for (int i = random.nextInt(3); i > 0; i--) {
                    list.add(value(random, depth - 1));
                }
                yield list;
            }
            default -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (int i = random.nextInt(3); i > 0; i--) {
                    map.put(pick(random, KEYS), value(random, depth - 1));
                }
                yield map;
            }
        };
    }

    /** The JSON text cut short, with a character dropped, doubled or replaced. */
    private static String damage(Random random, String text) {
        int at = random.nextInt(text.length());
        return switch (random.nextInt(4)) {
            case 0 -> text.substring(0, at);
            case 1 -> text.substring(0, at) + text.substring(at + 1);
            case 2 -> text.substring(0, at) + text.charAt(at) + text.substring(at);
            default -> text.substring(0, at) + pick(random, List.of("{", "}", "[", "]", ",", ":", "\"", "\\", "\u0000",
                    "9", "-", "e", "n")) + text.substring(at + 1);
        };
    }

    private static <T> T pick(Random random, List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }
}
