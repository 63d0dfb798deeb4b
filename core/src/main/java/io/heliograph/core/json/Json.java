package io.heliograph.core.json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;

/**
 * The JSON of stored values and files (the shared store's values, an app's data file), on Jackson,
 * as plain values: a document reads as {@code Map<String, Object>} (members in order), {@code List},
 * {@code String}, {@code Long}, {@code Boolean} or {@code null}. Only whole numbers are taken.
 * A document that cannot be read is an IllegalArgumentException naming the problem and where it is
 * ({@code "... at line 3, column 12"}). The REST API maps its bodies with its own mapper (webui's
 * {@code RestJson}); this is for the data an app keeps.
 */
public final class Json {

    /**
     * The deepest nesting of arrays and objects {@link #parse(String)} accepts: far above any document
     * the controller keeps, far below what could exhaust a reading thread's stack. The REST API's limit is
     * the same.
     */
    public static final int MAX_DEPTH = 64;

    private static final ObjectMapper MAPPER = mapper(MAX_DEPTH);

    /** A mapper per depth limit other than {@link #MAX_DEPTH}: a mapper is costly to make, cheap to share. */
    private static final Map<Integer, ObjectMapper> SHALLOW = new ConcurrentHashMap<>(Map.of(MAX_DEPTH, MAPPER));

    /** Where Jackson's messages name a position inside their own text: "[Source: ...; line: 1, column: 15]". */
    private static final Pattern SOURCE = Pattern.compile("\\[Source: [^;\\]]*; line: (\\d+), column: (\\d+)\\]");

    /** Two spaces a level, {@code "name": value}, one array item a line, {@code {}} and {@code []} when empty. */
    private static final ObjectWriter PRETTY = MAPPER.writer(new DefaultPrettyPrinter(Separators.createDefaultInstance()
            .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
            .withObjectEmptySeparator("")
            .withArrayEmptySeparator(""))
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n")));

    private Json() {
    }

    /** A document of text; IllegalArgumentException naming the problem and its line and column. */
    public static Object parse(String text) {
        return parse(MAPPER, text);
    }

    /** A document of UTF-8 bytes (a stored value); IllegalArgumentException naming the problem and where. */
    public static Object parse(byte[] utf8) {
        return parse(MAPPER, new String(utf8, StandardCharsets.UTF_8));
    }

    /**
     * A document nested at most {@code maxDepth} levels (1: a flat object or array), for values whose
     * shape is known to be shallow: a deeper one is refused where it goes too deep.
     */
    public static Object parse(byte[] utf8, int maxDepth) {
        return parse(SHALLOW.computeIfAbsent(maxDepth, Json::mapper), new String(utf8, StandardCharsets.UTF_8));
    }

    /**
     * A flat object whose members are strings or whole numbers ({@code String} or {@code Long}), as a
     * small record in the store is ({@code {"instance":"c1","generation":42}}, readable with zkCli); a
     * nested value is refused where it starts.
     */
    public static Map<String, Object> flatObject(byte[] utf8) {
        if (!(parse(utf8, 1) instanceof Map<?, ?> object)) {
            throw new IllegalArgumentException("not a JSON object");
        }
        Map<String, Object> members = new LinkedHashMap<>();
        for (Map.Entry<?, ?> member : object.entrySet()) {
            if (!(member.getValue() instanceof String || member.getValue() instanceof Long)) {
                throw new IllegalArgumentException("\"" + member.getKey() + "\" is not a string or a whole number: "
                        + member.getValue());
            }
            members.put((String) member.getKey(), member.getValue());
        }
        return members;
    }

    /** Compact JSON of plain values (maps, lists, strings, numbers, booleans, null), as UTF-8. */
    public static byte[] compact(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Indented JSON of plain values, for a file or a value an operator reads, ending with a newline. */
    public static String pretty(Object value) {
        try {
            return PRETTY.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static Object parse(ObjectMapper mapper, String text) {
        int maxDepth = mapper.getFactory().streamReadConstraints().getMaxNestingDepth();
        JsonParser parser = null;
        try {
            parser = mapper.createParser(text);
            return mapper.readValue(parser, Object.class);
        } catch (StreamConstraintsException e) {
            throw problem(e.getOriginalMessage().startsWith("Document nesting depth")
                    ? "nested deeper than " + maxDepth + " levels of arrays and objects"
                    : e.getOriginalMessage(), e, parser);
        } catch (JsonProcessingException e) {
            throw problem(firstLine(e.getOriginalMessage()), e, parser);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // reading a String does no I/O
        } finally {
            if (parser != null) {
                try {
                    parser.close();
                } catch (IOException e) {
                    // nothing to release for a String
                }
            }
        }
    }

    private static IllegalArgumentException problem(String what, JsonProcessingException e, JsonParser parser) {
        JsonLocation at = e.getLocation() != null ? e.getLocation() : parser == null ? null : parser.currentLocation();
        String where = at == null || at.getLineNr() < 0 ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        return new IllegalArgumentException(what + where, e);
    }

    /**
     * Jackson's message without its source description, which names no more than "the document":
     * "expected close marker for OBJECT (start marker at line 1, column 15)".
     */
    private static String firstLine(String message) {
        if (message == null) {
            return "bad JSON";
        }
        int end = message.indexOf('\n');
        String first = end < 0 ? message : message.substring(0, end);
        return SOURCE.matcher(first).replaceAll("line $1, column $2");
    }

    private static ObjectMapper mapper(int maxDepth) {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(maxDepth).build())
                .build();
        return new ObjectMapper(factory)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .registerModule(new SimpleModule("whole numbers").addDeserializer(Number.class, new WholeNumber()));
    }

    /** Every number of a document as a Long: a fraction, or a number beyond a long, is refused where it is. */
    private static final class WholeNumber extends StdDeserializer<Number> {

        WholeNumber() {
            super(Number.class);
        }

        @Override
        public Number deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
                return ctxt.reportInputMismatch(this, "only whole numbers are expected, not %s", p.getText());
            }
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                return ctxt.reportInputMismatch(this, "%s is beyond a 64-bit integer", p.getText());
            }
            return p.getLongValue();
        }
    }
}
