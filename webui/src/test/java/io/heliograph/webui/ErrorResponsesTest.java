package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.core.Refusal;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.RestResource;

/** Every way a request can go wrong answers JSON naming the problem, never HTML or a stack trace. */
class ErrorResponsesTest {

    private static final long BODY_LIMIT = 200;
    private static final long UPLOAD_LIMIT = 4000;
    private static final ObjectMapper JSON = new ObjectMapper();

    enum Colour { RED, GREEN }

    record Thing(String name, int size, Colour colour, List<Integer> ports) {
    }

    @RestController
    @RequestMapping("/api/v1/test")
    static class Things implements RestResource {
        @PostMapping("/things")
        public Thing create(@RequestBody Thing thing) {
            if (thing.size() < 0) {
                throw ApiException.badRequest("size", "must not be negative, got " + thing.size());
            }
            return thing;
        }

        @GetMapping("/things/{id}")
        public Thing get(@PathVariable int id, @RequestParam int limit) {
            return new Thing("t" + id, limit, Colour.RED, List.of());
        }

        @GetMapping("/boom")
        public Thing boom() {
            throw new IllegalStateException("secret internal detail");
        }

        @PostMapping("/refused/{kind}")
        public Thing refused(@PathVariable String kind) {
            if (kind.equals("store")) {
                throw new SharedStore.StoreUnavailableException("no session", null);
            }
            throw new Refusal(Refusal.Kind.valueOf(kind), "$.links[2].cost", "an app's runtime refuses this");
        }

        @PostMapping("/any")
        public Map<String, Object> any(@RequestBody JsonNode body) {
            return Map.of("type", body.getNodeType().toString());
        }

        @PostMapping("/upload")
        public Map<String, Object> upload(@RequestParam("file") MultipartFile file) {
            return Map.of("size", file.getSize());
        }
    }

    @TempDir
    Path dataDir;
    private RunningServer server;

    @BeforeEach
    void start() throws IOException {
        server = new RunningServer(dataDir, new HttpSettings("127.0.0.1", 0, -1, Optional.empty(), "", "PKCS12",
                BODY_LIMIT, UPLOAD_LIMIT, true));
        server.component.addResource(new Things());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aGoodRequestPasses() {
        HttpResponse<String> ok = server.postJson("/api/v1/test/things",
                "{\"name\":\"a\",\"size\":2,\"colour\":\"GREEN\",\"ports\":[1,2]}");
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals("{\"name\":\"a\",\"size\":2,\"colour\":\"GREEN\",\"ports\":[1,2]}", ok.body());
    }

    @Test
    void malformedJsonSaysWhere() {
        JsonNode error = error(server.postJson("/api/v1/test/things", "{\"name\":\"a\",\n \"size\": }"), 400);
        assertTrue(error.get("message").asText().startsWith("malformed JSON at line 2, column"), error.toString());
        assertFalse(error.get("message").asText().contains("Source"), error.toString());
    }

    @Test
    void anUnknownFieldIsNamed() {
        JsonNode error = error(server.postJson("/api/v1/test/things",
                "{\"name\":\"a\",\"size\":1,\"color\":\"RED\"}"), 400);
        assertEquals("color", error.get("field").asText());
        assertTrue(error.get("message").asText().contains("unknown field 'color'"), error.toString());
        assertTrue(error.get("message").asText().contains("colour"), "lists the known fields: " + error);
    }

    @Test
    void aValueOfTheWrongTypeNamesItsFieldAndTheExpectedType() {
        JsonNode size = error(server.postJson("/api/v1/test/things", "{\"name\":\"a\",\"size\":\"big\"}"), 400);
        assertEquals("size", size.get("field").asText());
        assertTrue(size.get("message").asText().contains("integer"), size.toString());

        JsonNode colour = error(server.postJson("/api/v1/test/things", "{\"size\":1,\"colour\":\"BLUE\"}"), 400);
        assertEquals("colour", colour.get("field").asText());
        assertTrue(colour.get("message").asText().contains("[RED, GREEN]"), colour.toString());

        JsonNode port = error(server.postJson("/api/v1/test/things", "{\"size\":1,\"ports\":[1,\"x\"]}"), 400);
        assertEquals("ports[1]", port.get("field").asText());

        JsonNode absent = error(server.postJson("/api/v1/test/things", "{\"name\":\"a\"}"), 400);
        assertEquals("size", absent.get("field").asText(), "a primitive is never silently 0");
        assertTrue(absent.get("message").asText().contains("required"), absent.toString());

        JsonNode name = error(server.postJson("/api/v1/test/things", "{\"name\":3,\"size\":1}"), 400);
        assertEquals("name", name.get("field").asText(), "a number is not silently a name");
    }

    @Test
    void anApiExceptionKeepsItsStatusFieldAndMessage() {
        JsonNode error = error(server.postJson("/api/v1/test/things", "{\"size\":-1}"), 400);
        assertEquals("size", error.get("field").asText());
        assertEquals("must not be negative, got -1", error.get("message").asText());
        assertEquals("Bad Request", error.get("error").asText());
    }

    @Test
    void anAppsRefusalIsAnsweredWithTheStatusOfItsKindAndItsField() {
        Map<Refusal.Kind, Integer> statuses = Map.of(Refusal.Kind.BAD_REQUEST, 400, Refusal.Kind.FORBIDDEN, 403,
                Refusal.Kind.NOT_FOUND, 404, Refusal.Kind.CONFLICT, 409, Refusal.Kind.UNAVAILABLE, 503);
        statuses.forEach((kind, status) -> {
            JsonNode error = error(server.postJson("/api/v1/test/refused/" + kind.name(), "{}"), status);
            assertEquals("$.links[2].cost", error.get("field").asText());
            assertEquals("an app's runtime refuses this", error.get("message").asText());
        });
        JsonNode store = error(server.postJson("/api/v1/test/refused/store", "{}"), 503);
        assertEquals("the cluster's shared store cannot be reached now: no session", store.get("message").asText());
    }

    @Test
    void pathVariablesAndQueryParametersAreChecked() {
        JsonNode id = error(server.get("/api/v1/test/things/abc?limit=1"), 400);
        assertEquals("id", id.get("field").asText());
        assertTrue(id.get("message").asText().contains("'abc' is not a valid integer"), id.toString());

        JsonNode missing = error(server.get("/api/v1/test/things/1"), 400);
        assertEquals("limit", missing.get("field").asText());
        assertTrue(missing.get("message").asText().contains("required"), missing.toString());
    }

    @Test
    void mediaTypesTheResourceDoesNotSpeakAre415And406() {
        HttpResponse<String> plain = server.send(server.request("/api/v1/test/things")
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("x")).build());
        assertEquals("Content-Type", error(plain, 415).get("field").asText());

        HttpResponse<String> xml = server.send(server.request("/api/v1/test/things/1?limit=2")
                .header("Accept", "application/xml").GET().build());
        assertEquals(406, xml.statusCode(), xml.body());
    }

    @Test
    void aBodyLargerThanTheLimitIs413WithOrWithoutContentLength() {
        String big = "{\"name\":\"" + "x".repeat((int) BODY_LIMIT) + "\"}";
        JsonNode declared = error(server.postJson("/api/v1/test/things", big), 413);
        assertTrue(declared.get("message").asText().contains("limit of " + BODY_LIMIT), declared.toString());

        HttpResponse<String> chunked = server.send(server.request("/api/v1/test/things")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8)))).build());
        error(chunked, 413);
    }

    @Test
    void uploadsHaveTheirOwnLargerLimit() {
        byte[] small = new byte[(int) BODY_LIMIT * 5];
        HttpResponse<String> ok = server.send(multipart(small));
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals("{\"size\":" + small.length + "}", ok.body());

        error(server.send(multipart(new byte[(int) UPLOAD_LIMIT + 1])), 413);
    }

    /** Issue 18, D3: a body that says it is multipart and is not used to answer 500 on every write. */
    @Test
    void aBodyThatSaysItIsMultipartButIsNotIs400NamingTheProblem() {
        String good = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f\"\r\n\r\nx\r\n--b--\r\n";
        Map<String, String> bodies = new java.util.LinkedHashMap<>();
        bodies.put("multipart/form-data; boundary=b", "{\"name\":\"a\",\"size\":1}");
        bodies.put("multipart/form-data", good);
        bodies.put("multipart/form-data; boundary=\"b\"", good.substring(0, good.length() - 8));
        bodies.put("multipart/form-data;boundary=b", "");
        bodies.put("multipart/mixed; boundary=zz", good);
        bodies.put("Multipart/Form-Data; boundary=b", "--b\r\nno headers end");
        Map<String, String> requests = Map.of("/api/v1/test/things", "POST", "/api/v1/test/upload", "POST",
                "/api/v1/test/things/1?limit=1", "GET");
        requests.forEach((path, method) -> {
            bodies.forEach((type, body) -> {
                HttpResponse<String> answer = server.send(server.request(path).header("Content-Type", type)
                        .method(method, HttpRequest.BodyPublishers.ofString(body)).build());
                JsonNode error = error(answer, 400);
                assertTrue(error.get("message").asText().contains("is not valid multipart"), type + ": " + error);
                // Jetty closes the connection after it (the rest of the body is unreadable): said, so that
                // no client sends its next request on it.
                assertEquals("close", answer.headers().firstValue("Connection").orElse(""), type);
            });
        });
    }

    /** Issue 18, D2: nesting is bounded before Jackson maps the body, with a message that says so. */
    @Test
    void aBodyNestedDeeperThanTheLimitIs400NamingTheLimit() {
        int limit = RestJson.MAX_NESTING_DEPTH;
        HttpResponse<String> within = server.postJson("/api/v1/test/any", "[".repeat(limit) + "]".repeat(limit));
        assertEquals(200, within.statusCode(), within.body());
        assertEquals("{\"type\":\"ARRAY\"}", within.body());

        JsonNode error = error(server.postJson("/api/v1/test/any", "[".repeat(limit + 1) + "]".repeat(limit + 1)), 400);
        assertEquals("the JSON body nests arrays and objects deeper than the limit of " + limit
                + " levels", error.get("message").asText(), error.toString());
    }

    /** Issue 18: found by RestFuzzIT, a query Jetty cannot decode was a 500. */
    @Test
    void aQueryThatCannotBeDecodedIs400() throws IOException {
        for (String query : List.of("limit=%zz", "limit=%", "%zz=1")) {
            String answer = raw("GET /api/v1/test/things/1?" + query + " HTTP/1.1\r\nHost: x\r\nAuthorization: "
                    + server.basic() + "\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
            assertTrue(answer.endsWith("{\"status\":400,\"error\":\"Bad Request\",\"message\":"
                    + "\"the request cannot be read: Unable to parse URI query\"}"), answer);
        }
    }

    /** Issue 18: found by RestFuzzIT, a path with a broken escape that Jetty lets through failed in Spring with a 500. */
    @Test
    void aPathWithABrokenEscapeIs400() throws IOException {
        for (String path : List.of("/api/v1/test/things/%3`", "/api/v1/test/things/%2:a", "/api/v1/test/%F0%9F%;8%80")) {
            String answer = raw("GET " + path + "?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: " + server.basic() + "\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 400"), path + ": " + answer);
            assertTrue(answer.contains("\"message\":\"the request path has an invalid percent-encoding at '%"), answer);
        }
        assertEquals(200, server.get("/api/v1/test/things/%31?limit=1").statusCode(), "a valid escape still reads");
    }

    /** Issue 18: found by RestFuzzIT, Spring dropped a segment's ';...', so "9;" read as thing 9. */
    @Test
    void aPathWithASemicolonIs400() throws IOException {
        for (String path : List.of("/api/v1/test/things/1;", "/api/v1/test/things/1;jsessionid=x",
                "/api/v1/test;x/things/1")) {
            String answer = raw("GET " + path + "?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: " + server.basic() + "\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 400"), path + ": " + answer);
            assertTrue(answer.contains("\"message\":\"the request path has a ';' at character "), answer);
        }
        assertEquals(400, server.get("/api/v1/test/things/1%3B?limit=1").statusCode(),
                "an encoded ';' is part of the value, which is no number");
    }

    /** Issue 18: found by RestFuzzIT, a JSON string where an object belongs answered Jackson's message, value and class. */
    @Test
    void aBodyOfTheWrongShapeSaysWhatWasExpectedWithoutQuotingIt() {
        JsonNode error = error(server.postJson("/api/v1/test/things", "\"" + "x".repeat(150) + "\""), 400);
        assertEquals("expected object (Thing) at line 1, column 1", error.get("message").asText());
        error = error(server.postJson("/api/v1/test/things", "[1]"), 400);
        assertEquals("expected object (Thing) at line 1, column 1", error.get("message").asText());
    }

    @Test
    void aMessageQuotingAHugeValueIsCut() {
        String huge = "9".repeat(3_000);
        JsonNode error = error(server.get("/api/v1/test/things/" + huge + "?limit=1"), 400);
        String message = error.get("message").asText();
        assertTrue(message.length() < ErrorBody.MAX_TEXT + 40, message.length() + " characters");
        assertTrue(message.endsWith("... (" + (huge.length() + "'' is not a valid integer".length()) + " characters)"),
                message);
    }

    @Test
    void traceIsNotAllowedRatherThanEchoingTheCredentials() {
        HttpResponse<String> trace = server.send(server.request("/api/v1/test/things/1?limit=1")
                .method("TRACE", HttpRequest.BodyPublishers.noBody()).build());
        JsonNode error = error(trace, 405);
        assertFalse(trace.body().contains("Authorization"), trace.body());
        assertTrue(trace.headers().firstValue("Allow").orElse("").contains("GET"), error.toString());
    }

    @Test
    void aServerFaultIsGenericAndKeepsItsDetailsInTheLog() {
        HttpResponse<String> boom = server.get("/api/v1/test/boom");
        JsonNode error = error(boom, 500);
        assertTrue(error.get("message").asText().contains("reference"), error.toString());
        assertFalse(boom.body().contains("secret internal detail"), boom.body());
        assertFalse(boom.body().contains("Exception"), boom.body());
    }

    @Test
    void requestsJettyRefusesBeforeSpringAreJsonToo() throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /api/v1/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
            assertTrue(answer.contains("Content-Type: application/json"), answer);
            assertTrue(answer.contains("{\"status\":400,\"error\":\"Bad Request\""), answer);
            assertFalse(answer.contains("<html"), answer);
        }
        // Issue 18, found by RestFuzzIT: for other methods than GET, POST and HEAD, Jetty answered an empty body.
        for (String method : List.of("DELETE", "PUT", "PATCH", "OPTIONS")) {
            for (String request : List.of(method + " /api/v1/test/things/%2e%2e HTTP/1.1\r\nHost: x\r\n",
                    method + " /api/v1/test/things HTTP/1.1\r\nHost: x\r\nX-Big: " + "y".repeat(10_000) + "\r\n")) {
                String answer = raw(request);
                assertTrue(answer.startsWith("HTTP/1.1 4"), answer);
                assertTrue(answer.contains("Content-Type: application/json"), method + ": " + answer);
                assertTrue(answer.contains("{\"status\":4"), method + ": " + answer);
            }
        }
    }

    /**
     * A resource that refuses before reading the body: Jetty closed such a connection after the answer
     * when the body was still on its way, so a client's next request on it failed (found in CI, where
     * the JDK client posts the body after the headers).
     */
    @Test
    void aBodyTheResourceDidNotReadStillArrivingKeepsTheConnectionUsable() throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            String head = "POST /api/v1/test/refused/CONFLICT HTTP/1.1\r\nHost: x\r\nAuthorization: " + server.basic()
                    + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String refused = readAnswer(in);
            assertTrue(refused.startsWith("HTTP/1.1 409"), "answered before the body was sent: " + refused);
            assertFalse(refused.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), refused);
            out.write("{}".getBytes(StandardCharsets.US_ASCII));
            out.write(("GET /api/v1/test/things/7?limit=3 HTTP/1.1\r\nHost: x\r\nAuthorization: " + server.basic()
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String next = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(next.startsWith("HTTP/1.1 200"), next);
            assertTrue(next.contains("{\"name\":\"t7\",\"size\":3,\"colour\":\"RED\",\"ports\":[]}"), next);
        }
    }

    /** The first answer on a kept-alive connection: its head, then as many body bytes as its Content-Length says. */
    private static String readAnswer(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new AssertionError("the connection closed after " + head);
            }
            head.append((char) b);
        }
        java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
        if (!length.find()) {
            throw new AssertionError("no Content-Length: " + head);
        }
        return head + new String(in.readNBytes(Integer.parseInt(length.group(1))), StandardCharsets.ISO_8859_1);
    }

    /** The whole answer to a request written as it is: {@code head} is the request line and headers, each line ended. */
    private String raw(String head) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write((head + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private HttpRequest multipart(byte[] content) {
        String boundary = "b0undary";
        byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.jar\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[head.length + content.length + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(content, 0, body, head.length, content.length);
        System.arraycopy(tail, 0, body, head.length + content.length, tail.length);
        return server.request("/api/v1/test/upload").header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    }

    /** Asserts {@code status} with a JSON error body of that status, and returns the body. */
    private static JsonNode error(HttpResponse<String> response, int status) {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""), response.body());
        try {
            JsonNode body = JSON.readTree(response.body());
            assertEquals(status, body.get("status").asInt(), response.body());
            assertTrue(body.hasNonNull("error") && body.hasNonNull("message"), response.body());
            return body;
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + response.body(), e);
        }
    }
}
