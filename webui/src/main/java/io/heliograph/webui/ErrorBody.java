package io.heliograph.webui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.springframework.http.HttpStatus;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import jakarta.servlet.http.HttpServletResponse;

/**
 * The body of every error the HTTP server answers, whoever detects it (a resource, Spring, a filter,
 * Jetty): {@code {"status":400,"error":"Bad Request","field":"match.eth_type","message":"..."}}.
 * {@code field} is left out when no single field of the request is to blame.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ErrorBody(int status, String error, String field, String message) {

    private static final ObjectMapper JSON = RestJson.objectMapper();

    /** The longest message or field answered: one that quotes a huge value from the request is cut. */
    static final int MAX_TEXT = 1000;

    public static ErrorBody of(int status, String field, String message) {
        HttpStatus known = HttpStatus.resolve(status);
        return new ErrorBody(status, known != null ? known.getReasonPhrase() : "Error " + status, cut(field),
                cut(message));
    }

    private static String cut(String text) {
        if (text == null || text.length() <= MAX_TEXT) {
            return text;
        }
        return text.substring(0, MAX_TEXT) + "... (" + text.length() + " characters)";
    }

    public byte[] toJson() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (JsonProcessingException e) {
            // A record of strings and an int always serialises; this is not reachable.
            return ("{\"status\":" + status + "}").getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Answers {@code response} with this error, replacing anything buffered but not yet sent. */
    public void writeTo(HttpServletResponse response) throws IOException {
        response.resetBuffer();
        response.setStatus(status);
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-store");
        byte[] body = toJson();
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        response.flushBuffer();
    }
}
