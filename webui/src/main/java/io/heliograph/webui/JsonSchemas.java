package io.heliograph.webui;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.time.LocalDate;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;

/**
 * OpenAPI 3 schemas of Java types, by reflection and as the REST API's Jackson mapping sees them
 * (the same property names and types it writes): primitives, strings, enums, times, lists, maps,
 * optionals, and records or beans as named component schemas, referenced with {@code $ref} so that
 * recursive types end.
 */
final class JsonSchemas {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ObjectMapper json;
    private final ObjectNode components = NODES.objectNode();
    private final Map<Class<?>, String> names = new HashMap<>();

    JsonSchemas(ObjectMapper json) {
        this.json = json;
    }

    /** The named schemas the schemas returned so far refer to. */
    ObjectNode components() {
        return components;
    }

    ObjectNode of(Type type) {
        return of(json.getTypeFactory().constructType(type));
    }

    ObjectNode of(JavaType type) {
        Class<?> raw = type.getRawClass();
        if (raw == int.class || raw == Integer.class || raw == short.class || raw == Short.class
                || raw == byte.class || raw == Byte.class) {
            return typed("integer").put("format", "int32");
        }
        if (raw == long.class || raw == Long.class || raw == BigInteger.class) {
            return typed("integer").put("format", "int64");
        }
        if (raw == double.class || raw == Double.class || raw == BigDecimal.class) {
            return typed("number").put("format", "double");
        }
        if (raw == float.class || raw == Float.class) {
            return typed("number").put("format", "float");
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return typed("boolean");
        }
        if (CharSequence.class.isAssignableFrom(raw) || raw == char.class || raw == Character.class) {
            return typed("string");
        }
        if (raw == byte[].class) {
            return typed("string").put("format", "byte");
        }
        if (raw.isEnum()) {
            ObjectNode schema = typed("string");
            ArrayNode values = schema.putArray("enum");
            for (Object constant : raw.getEnumConstants()) {
                values.add(((Enum<?>) constant).name());
            }
            return schema;
        }
        if (raw == UUID.class) {
            return typed("string").put("format", "uuid");
        }
        if (raw == LocalDate.class) {
            return typed("string").put("format", "date");
        }
        if (Temporal.class.isAssignableFrom(raw)) {
            return typed("string").put("format", "date-time");
        }
        if (raw == Duration.class) {
            return typed("string").put("format", "duration");
        }
        if (raw == URI.class || raw == URL.class) {
            return typed("string").put("format", "uri");
        }
        if (type.isReferenceType()) {   // Optional<T>, AtomicReference<T>
            return of(type.getReferencedType());
        }
        if (type.isArrayType() || type.isCollectionLikeType()) {
            ObjectNode schema = typed("array");
            schema.set("items", of(type.getContentType()));
            return schema;
        }
        if (type.isMapLikeType()) {
            ObjectNode schema = typed("object");
            schema.set("additionalProperties", of(type.getContentType()));
            return schema;
        }
        if (raw == Object.class || JsonNode.class.isAssignableFrom(raw)) {
            return NODES.objectNode();   // any JSON value
        }
        if (raw.getName().startsWith("org.projectfloodlight.openflow.")) {
            // OpenFlow value types (DatapathId, MacAddress, OFPort, ...) travel as strings.
            return typed("string").put("format", raw.getSimpleName());
        }
        if (raw.getName().startsWith("java.") || raw.getName().startsWith("javax.")) {
            return typed("string");
        }
        return reference(type);
    }

    private ObjectNode reference(JavaType type) {
        Class<?> raw = type.getRawClass();
        String name = names.get(raw);
        if (name == null) {
            name = uniqueName(raw);
            names.put(raw, name);
            ObjectNode schema = typed("object");
            components.set(name, schema);   // before the properties: a type that refers to itself ends here
            describe(schema, raw);
            ObjectNode properties = schema.putObject("properties");
            List<String> required = new ArrayList<>();
            BeanDescription bean = json.getSerializationConfig().introspect(type);
            JsonInclude.Value inclusion = bean.findPropertyInclusion(
                    json.getSerializationConfig().getDefaultPropertyInclusion(raw));
            for (BeanPropertyDefinition property : bean.findProperties()) {
                if (!property.couldSerialize()) {
                    continue;
                }
                ApiSchema declared = annotation(raw, property, ApiSchema.class);
                ObjectNode propertySchema = declared != null && declared.type() != Void.class
                        ? of(declared.type()) : of(property.getPrimaryType());
                if (declared != null && declared.values().length > 0) {
                    ArrayNode values = propertySchema.putArray("enum");
                    for (String value : declared.values()) {
                        values.add(value);
                    }
                }
                ApiDescription description = annotation(raw, property, ApiDescription.class);
                boolean primitive = property.getPrimaryType().isPrimitive();
                boolean always = primitive || declared != null && declared.required();
                if (!always && writesNull(inclusion.withOverrides(property.findInclusion()))) {
                    propertySchema = nullable(propertySchema);
                }
                if (description != null) {
                    propertySchema = withDescription(propertySchema, description.value());
                }
                properties.set(property.getName(), propertySchema);
                if (always || property.isRequired()) {
                    required.add(property.getName());
                }
            }
            if (!required.isEmpty()) {
                ArrayNode list = schema.putArray("required");
                required.forEach(list::add);
            }
        }
        ObjectNode ref = NODES.objectNode();
        ref.put("$ref", "#/components/schemas/" + name);
        return ref;
    }

    private String uniqueName(Class<?> raw) {
        String simple = raw.getSimpleName();
        Class<?> enclosing = raw.getEnclosingClass();
        String name = enclosing != null ? enclosing.getSimpleName() + "." + simple : simple;
        if (components.has(name)) {
            name = raw.getName().replace('$', '.');
        }
        return name;
    }

    /** A $ref cannot carry siblings in OpenAPI 3.0: wrap it to add a description. */
    private static ObjectNode withDescription(ObjectNode schema, String description) {
        if (schema.has("$ref")) {
            ObjectNode wrapped = NODES.objectNode();
            wrapped.putArray("allOf").add(schema);
            wrapped.put("description", description);
            return wrapped;
        }
        return schema.put("description", description);
    }

    /**
     * Whether Jackson writes a null value of a property with this inclusion as {@code null} (the
     * default), rather than leaving the property out: then a client must accept null there.
     */
    private static boolean writesNull(JsonInclude.Value inclusion) {
        JsonInclude.Include value = inclusion.getValueInclusion();
        return value == JsonInclude.Include.ALWAYS || value == JsonInclude.Include.USE_DEFAULTS;
    }

    /**
     * A schema that also takes null: OpenAPI 3.0's nullable, on an allOf around a $ref (which takes no
     * siblings), and null among an enum's values (which nullable does not add by itself).
     */
    private static ObjectNode nullable(ObjectNode schema) {
        if (schema.has("$ref")) {
            ObjectNode wrapped = NODES.objectNode();
            wrapped.putArray("allOf").add(schema);
            schema = wrapped;
        }
        if (schema.get("enum") instanceof ArrayNode values) {
            values.addNull();
        }
        return schema.put("nullable", true);
    }

    /** An annotation of a property: on its record component, field or getter. */
    private static <A extends java.lang.annotation.Annotation> A annotation(Class<?> owner,
            BeanPropertyDefinition property, Class<A> type) {
        if (owner.isRecord()) {
            for (RecordComponent component : owner.getRecordComponents()) {
                if (component.getName().equals(property.getInternalName())) {
                    A a = component.getAnnotation(type);
                    if (a != null) {
                        return a;
                    }
                }
            }
        }
        for (AnnotatedMember member : java.util.Arrays.asList(property.getField(), property.getGetter())) {
            if (member == null) {
                continue;
            }
            A a = ((AnnotatedElement) member.getMember()).getAnnotation(type);
            if (a != null) {
                return a;
            }
        }
        return null;
    }

    private static void describe(ObjectNode schema, AnnotatedElement element) {
        ApiDescription d = element.getAnnotation(ApiDescription.class);
        if (d != null) {
            schema.put("description", d.value());
        }
    }

    private static ObjectNode typed(String type) {
        return NODES.objectNode().put("type", type);
    }
}
