package io.heliograph.webui.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.RequestBuilder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.core.Refusal;
import io.heliograph.webui.api.ApiException;
import jakarta.servlet.ServletException;

/**
 * Requests through MockMvc, answered as JSON trees (read them with JSON pointers: {@code at("/0/src/dpid")}):
 * the apps' REST resource tests share it (heliograph-webui:tests).
 */
public final class Responses {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Responses() {
    }

    /** The body of a request that must succeed with this status. */
    public static JsonNode answer(MockMvc mvc, RequestBuilder request, int status) throws Exception {
        MvcResult result = mvc.perform(request).andReturn();
        assertEquals(status, result.getResponse().getStatus(), () -> String.valueOf(result.getResolvedException()));
        return JSON.readTree(result.getResponse().getContentAsString());
    }

    public static JsonNode ok(MockMvc mvc, RequestBuilder request) throws Exception {
        return answer(mvc, request, 200);
    }

    /** The refusal of a request that must fail with this status, naming this field. */
    public static ApiException refused(MockMvc mvc, RequestBuilder request, int status, String field) throws Exception {
        MvcResult result = mvc.perform(request).andReturn();
        assertEquals(status, result.getResponse().getStatus(), () -> String.valueOf(result.getResolvedException()));
        ApiException e = assertInstanceOf(ApiException.class, result.getResolvedException());
        assertEquals(field, e.field(), e.message());
        return e;
    }

    /**
     * The refusal of a request that an app's runtime refuses ({@link Refusal}: the web bundle answers it
     * with its status; MockMvc alone lets it through), with this status and naming this field.
     */
    public static Refusal refusal(MockMvc mvc, RequestBuilder request, int status, String field) throws Exception {
        try {
            MvcResult result = mvc.perform(request).andReturn();
            throw new AssertionError("expected a refusal with " + status + ", got " + result.getResponse().getStatus()
                    + ": " + result.getResponse().getContentAsString());
        } catch (ServletException e) {
            Throwable cause = e;
            while (cause != null && !(cause instanceof Refusal)) {
                cause = cause.getCause();
            }
            Refusal refusal = assertInstanceOf(Refusal.class, cause, () -> "not a refusal: " + e);
            assertEquals(status, refusal.status(), refusal.getMessage());
            assertEquals(field, refusal.field(), refusal.getMessage());
            return refusal;
        }
    }
}
