package io.heliograph.webui;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The one JSON mapping of the REST API. Strict on input, so that a typo in a request is an error that
 * names the field instead of a silently ignored value: unknown fields, nulls for primitives, numbers
 * for enums and anything after the JSON value are refused. Times are ISO-8601 strings. A document
 * nested deeper than {@link #MAX_NESTING_DEPTH} is refused before it is mapped.
 */
public final class RestJson {

    /**
     * The deepest nesting of arrays and objects a request body may have. The API's own documents nest
     * at most four levels (a static group's buckets and their actions); the limit refuses a hostile
     * body of thousands of brackets, whose mapping would recurse as deep, in one answer that names it.
     */
    public static final int MAX_NESTING_DEPTH = 64;

    private RestJson() {
    }

    public static ObjectMapper objectMapper() {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
                .build();
        ObjectMapper mapper = new ObjectMapper(factory)
                .registerModule(new Jdk8Module())
                .registerModule(new JavaTimeModule())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
        // A number or boolean where text is expected is a mistake in the request, not a name "3".
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return mapper;
    }
}
