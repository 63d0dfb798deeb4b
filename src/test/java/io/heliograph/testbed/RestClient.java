package io.heliograph.testbed;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import javax.net.ssl.SSLContext;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A client of a controller's REST API for system tests: JSON in and out, HTTP Basic or a bearer
 * token, and multipart uploads. It never throws for an HTTP status: every answer is a
 * {@link Response} for the test to assert on.
 *
 * <pre>
 * RestClient rest = controller.rest();                  // as the administrator
 * Response r = rest.post("/api/v1/auth/tokens", Map.of("name", "ci"));
 * RestClient asToken = rest.withBearer(r.json().get("token").asText());
 * </pre>
 */
public final class RestClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final URI base;
    private final HttpClient http;
    private final String authorization;
    private final Map<String, String> headers;

    private RestClient(URI base, HttpClient http, String authorization) {
        this(base, http, authorization, Map.of());
    }

    private RestClient(URI base, HttpClient http, String authorization, Map<String, String> headers) {
        this.base = base;
        this.http = http;
        this.authorization = authorization;
        this.headers = Map.copyOf(headers);
    }

    /** A client without credentials of the API at {@code base} (e.g. {@code http://127.0.0.1:8080}). */
    public static RestClient anonymous(URI base) {
        return new RestClient(base, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(), null);
    }

    /** As {@link #anonymous(URI)} over HTTPS, trusting what {@code tls} trusts. */
    public static RestClient anonymous(URI base, SSLContext tls) {
        return new RestClient(base, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(tls)
                .build(), null);
    }

    /** The same API with HTTP Basic credentials. */
    public RestClient withBasic(String user, String password) {
        return new RestClient(base, http, "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }

    /** The same API with a bearer token. */
    public RestClient withBearer(String token) {
        return new RestClient(base, http, "Bearer " + token);
    }

    /** The same API and credentials, sending one more header with every request (a host agent's key). */
    public RestClient withHeader(String name, String value) {
        Map<String, String> more = new java.util.LinkedHashMap<>(headers);
        more.put(name, value);
        return new RestClient(base, http, authorization, more);
    }

    /** The same API without credentials. */
    public RestClient withoutCredentials() {
        return new RestClient(base, http, null);
    }

    public URI base() {
        return base;
    }

    public Response get(String path) {
        return send("GET", path, null, null);
    }

    public Response delete(String path) {
        return send("DELETE", path, null, null);
    }

    /** POSTs {@code body} as JSON: a String is sent as it is (to send malformed JSON), anything else serialised. */
    public Response post(String path, Object body) {
        return send("POST", path, "application/json", json(body));
    }

    /** PUTs {@code body} as JSON, as {@link #post} does. */
    public Response put(String path, Object body) {
        return send("PUT", path, "application/json", json(body));
    }

    /** A POST of a {@code multipart/form-data} body with one file part named {@code field}. */
    public Response upload(String path, String field, Path file) {
        try {
            return upload(path, field, file.getFileName().toString(), Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** A POST of a {@code multipart/form-data} body with one part {@code field} holding {@code content}. */
    public Response upload(String path, String field, String fileName, byte[] content) {
        String boundary = "heliograph-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String head = "--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"" + field + "\"; filename=\"" + fileName + "\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n";
        body.writeBytes(head.getBytes(StandardCharsets.UTF_8));
        body.writeBytes(content);
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return send("POST", path, "multipart/form-data; boundary=" + boundary, body.toByteArray());
    }

    /** Any request: {@code contentType} and {@code body} may be null. */
    public Response send(String method, String path, String contentType, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(method + " " + path, response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + base.resolve(path) + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] json(Object body) {
        if (body instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + body + " as JSON", e);
        }
    }

    /** An answer: status, headers and body; {@link #toString} shows all three for assertion messages. */
    public record Response(String request, int status, HttpHeaders headers, String body) {

        /** The body parsed as JSON; fails with the body in the message if it is not JSON. */
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (JsonProcessingException e) {
                throw new AssertionError(request + " answered " + status + " with a body that is not JSON: " + body, e);
            }
        }

        public Optional<String> header(String name) {
            return headers.firstValue(name);
        }

        @Override
        public String toString() {
            return request + " -> " + status + " " + headers.map() + " " + body;
        }
    }
}
