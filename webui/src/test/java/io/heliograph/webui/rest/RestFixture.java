package io.heliograph.webui.rest;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.RequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.webui.RestJson;
import io.heliograph.webui.api.ApiException;

/**
 * MockMvc around resources, with the web bundle's JSON mapping and an error advice that renders
 * {@link ApiException} as the web bundle does ({@code {status, error, field, message}}), so tests
 * assert the field and message a client gets.
 */
final class RestFixture {

    private RestFixture() {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The resources with the web bundle's JSON mapping ({@link RestJson}) and an ApiException advice. */
    static MockMvc mvc(Object... resources) {
        return MockMvcBuilders.standaloneSetup(resources)
                .setMessageConverters(new ByteArrayHttpMessageConverter(), new StringHttpMessageConverter(),
                        new MappingJackson2HttpMessageConverter(RestJson.objectMapper()))
                .setControllerAdvice(new ApiErrors()).build();
    }

    /** Performs the request and reads the answer's status and JSON body. */
    static Answer call(MockMvc mvc, RequestBuilder request) throws Exception {
        MockHttpServletResponse response = mvc.perform(request).andReturn().getResponse();
        String body = response.getContentAsString();
        return new Answer(response.getStatus(), body.isEmpty() ? JSON.missingNode() : JSON.readTree(body), body,
                response.getHeader("Location"));
    }

    /** An HTTP answer (and its Location header, if any); {@link #at} reads its body by JSON pointer ({@code /0/dpid}). */
    record Answer(int status, JsonNode json, String body, String location) {

        JsonNode at(String pointer) {
            JsonNode node = json.at(pointer);
            assertFalse(node.isMissingNode(), "no " + pointer + " in " + body);
            return node;
        }

        String text(String pointer) {
            return at(pointer).asText();
        }

        long number(String pointer) {
            JsonNode node = at(pointer);
            assertTrue(node.isNumber(), pointer + " is not a number in " + body);
            return node.asLong();
        }

        int size(String pointer) {
            return at(pointer).size();
        }

        /** Asserts the status, with the body in the message when it differs. */
        Answer expect(int expected) {
            assertEquals(expected, status, "status of the answer " + body);
            return this;
        }

        /** Asserts an error answer: its status, the field blamed and a part of the message. */
        Answer refused(int expected, String field, String messagePart) {
            expect(expected);
            assertEquals(expected, json.path("status").asInt(), body);
            assertEquals(field, json.path("field").isNull() ? null : json.path("field").asText(), body);
            assertTrue(json.path("message").asText().contains(messagePart),
                    "message without '" + messagePart + "': " + body);
            return this;
        }
    }

    @RestControllerAdvice
    static class ApiErrors {
        @ExceptionHandler(ApiException.class)
        ResponseEntity<Map<String, Object>> refused(ApiException e) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", e.getStatusCode().value());
            body.put("error", e.getStatusCode().toString());
            body.put("field", e.field());
            body.put("message", e.message());
            return ResponseEntity.status(e.getStatusCode()).body(body);
        }
    }
}
