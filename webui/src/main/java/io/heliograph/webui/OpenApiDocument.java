package io.heliograph.webui;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpEntity;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.ValueConstants;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.heliograph.webui.api.ApiDescription;

/**
 * The OpenAPI 3 document of the REST API as it is mapped at this moment: one operation per path and
 * method of every registered resource (an app that stops takes its paths out of the next document),
 * with path, query and header parameters, request bodies, response types and their schemas, all read
 * from the handler methods. {@link ApiDescription} adds what the code cannot say.
 */
final class OpenApiDocument {

    static final String PATH = "/api/v1/openapi.json";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Spring path variables with a regular expression, {@code {id:\d+}}, or catch-all, {@code {*rest}}. */
    private static final Pattern VARIABLE = Pattern.compile("\\{\\*?([^}:]+)(:[^}]*)?}");

    private OpenApiDocument() {
    }

    static ObjectNode of(Map<RequestMappingInfo, HandlerMethod> handlers, String version, ObjectMapper json) {
        JsonSchemas schemas = new JsonSchemas(json);
        ObjectNode document = NODES.objectNode();
        document.put("openapi", "3.0.3");
        ObjectNode info = document.putObject("info");
        info.put("title", "Heliograph REST API");
        info.put("version", version);
        info.put("description", "Generated from the resources mapped now; apps add and remove theirs as they"
                + " start and stop. Errors are {status, error, field, message}.");
        document.putArray("security").add(NODES.objectNode().set("basicAuth", NODES.arrayNode()))
                .add(NODES.objectNode().set("bearerAuth", NODES.arrayNode()));

        ObjectNode paths = document.putObject("paths");
        Map<String, ObjectNode> byPath = new TreeMap<>();
        Set<String> operationIds = new HashSet<>();
        ObjectNode tags = NODES.objectNode();
        handlers.entrySet().stream()
                .sorted(Comparator.comparing(e -> e.getKey().toString()))
                .forEach(entry -> {
                    HandlerMethod handler = entry.getValue();
                    for (String pattern : entry.getKey().getPatternValues()) {
                        if (!describes(pattern)) {
                            continue;
                        }
                        String path = openApiPath(pattern);
                        ObjectNode item = byPath.computeIfAbsent(path, p -> NODES.objectNode());
                        for (RequestMethod method : methods(entry.getKey())) {
                            item.set(method.name().toLowerCase(java.util.Locale.ROOT),
                                    operation(entry.getKey(), handler, pattern, method, schemas, operationIds));
                        }
                    }
                    String tag = tag(handler);
                    ApiDescription d = handler.getBeanType().getAnnotation(ApiDescription.class);
                    if (!tags.has(tag)) {
                        ObjectNode t = NODES.objectNode().put("name", tag);
                        if (d != null) {
                            t.put("description", d.value());
                        }
                        tags.set(tag, t);
                    }
                });
        byPath.forEach(paths::set);
        ArrayNode tagList = document.putArray("tags");
        tags.forEach(tagList::add);

        ObjectNode components = document.putObject("components");
        ObjectNode schemaNodes = components.putObject("schemas");
        schemaNodes.set("Error", errorSchema());
        schemas.components().fields().forEachRemaining(e -> schemaNodes.set(e.getKey(), e.getValue()));
        ObjectNode security = components.putObject("securitySchemes");
        security.putObject("basicAuth").put("type", "http").put("scheme", "basic");
        security.putObject("bearerAuth").put("type", "http").put("scheme", "bearer")
                .put("description", "a token from POST /api/v1/auth/tokens");
        return document;
    }

    /** Whether the document describes {@code pattern}: everything but the web UI's shell, icon and scripts. */
    static boolean describes(String pattern) {
        return !pattern.equals("/") && !pattern.equals("/index.html") && !pattern.equals("/favicon.ico")
                && !pattern.startsWith("/ui/");
    }

    /** The OpenAPI form of a Spring pattern: {@code /switches/{dpid:[0-9a-f:]+}} -> {@code /switches/{dpid}}. */
    static String openApiPath(String pattern) {
        Matcher m = VARIABLE.matcher(pattern);
        return m.replaceAll(r -> Matcher.quoteReplacement("{" + r.group(1) + "}"));
    }

    private static Set<RequestMethod> methods(RequestMappingInfo info) {
        Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
        return methods.isEmpty() ? Set.of(RequestMethod.GET) : new java.util.TreeSet<>(methods);
    }

    private static String tag(HandlerMethod handler) {
        String name = handler.getBeanType().getSimpleName();
        return name.endsWith("Resource") && name.length() > "Resource".length()
                ? name.substring(0, name.length() - "Resource".length()) : name;
    }

    private static ObjectNode operation(RequestMappingInfo info, HandlerMethod handler, String pattern,
            RequestMethod httpMethod, JsonSchemas schemas, Set<String> operationIds) {
        Method method = handler.getMethod();
        ObjectNode operation = NODES.objectNode();
        operation.putArray("tags").add(tag(handler));
        ApiDescription summary = method.getAnnotation(ApiDescription.class);
        if (summary != null) {
            operation.put("summary", summary.value());
        }
        String id = handler.getBeanType().getSimpleName() + "." + method.getName();
        String unique = id;
        for (int n = 2; !operationIds.add(unique); n++) {
            unique = id + "." + n;
        }
        operation.put("operationId", unique);
        if (HealthResource.PATH.equals(pattern)) {
            operation.putArray("security");   // the one public operation
        }

        ArrayNode parameters = NODES.arrayNode();
        ObjectNode multipart = null;
        for (MethodParameter parameter : handler.getMethodParameters()) {
            parameter.initParameterNameDiscovery(new org.springframework.core.DefaultParameterNameDiscoverer());
            Type type = parameter.getGenericParameterType();
            PathVariable path = parameter.getParameterAnnotation(PathVariable.class);
            RequestParam query = parameter.getParameterAnnotation(RequestParam.class);
            RequestHeader header = parameter.getParameterAnnotation(RequestHeader.class);
            RequestBody body = parameter.getParameterAnnotation(RequestBody.class);
            RequestPart part = parameter.getParameterAnnotation(RequestPart.class);
            if (path != null) {
                parameters.add(parameter("path", name(either(path.name(), path.value()), parameter), true, schemas.of(type), parameter));
            } else if (part != null || (query != null && isFile(parameter))) {
                String name = part != null ? name(either(part.name(), part.value()), parameter) : name(either(query.name(), query.value()), parameter);
                if (multipart == null) {
                    multipart = NODES.objectNode().put("type", "object");
                    multipart.putObject("properties");
                }
                ((ObjectNode) multipart.get("properties")).set(name, isFile(parameter)
                        ? NODES.objectNode().put("type", "string").put("format", "binary") : schemas.of(type));
            } else if (query != null && !Map.class.isAssignableFrom(parameter.getParameterType())) {
                boolean required = query.required() && ValueConstants.DEFAULT_NONE.equals(query.defaultValue())
                        && parameter.getParameterType() != Optional.class;
                ObjectNode schema = schemas.of(type);
                if (!ValueConstants.DEFAULT_NONE.equals(query.defaultValue())) {
                    schema.put("default", query.defaultValue());
                }
                parameters.add(parameter("query", name(either(query.name(), query.value()), parameter), required, schema, parameter));
            } else if (header != null && !Map.class.isAssignableFrom(parameter.getParameterType())) {
                parameters.add(parameter("header", name(either(header.name(), header.value()), parameter),
                        header.required() && ValueConstants.DEFAULT_NONE.equals(header.defaultValue()),
                        schemas.of(type), parameter));
            } else if (body != null) {
                ObjectNode requestBody = operation.putObject("requestBody");
                requestBody.put("required", body.required());
                ObjectNode content = requestBody.putObject("content");
                for (String mediaType : consumes(info)) {
                    content.putObject(mediaType).set("schema", schemas.of(type));
                }
            }
        }
        if (!parameters.isEmpty()) {
            operation.set("parameters", parameters);
        }
        if (multipart != null) {
            ObjectNode requestBody = operation.putObject("requestBody");
            requestBody.put("required", true);
            requestBody.putObject("content").putObject(MediaType.MULTIPART_FORM_DATA_VALUE).set("schema", multipart);
        }

        ObjectNode responses = operation.putObject("responses");
        ResponseStatus status = AnnotatedElementUtils.findMergedAnnotation(method, ResponseStatus.class);
        int code = status != null ? status.code().value() : 200;
        ObjectNode success = responses.putObject(Integer.toString(code));
        success.put("description", code == 201 ? "created" : code == 204 ? "no content" : "success");
        Type body = responseType(method.getGenericReturnType());
        if (body == null && info.getProducesCondition().getProducibleMediaTypes().contains(MediaType.TEXT_EVENT_STREAM)) {
            // a stream the handler writes itself (non-blocking servlet output), such as the live events
            success.putObject("content").putObject(MediaType.TEXT_EVENT_STREAM_VALUE)
                    .set("schema", NODES.objectNode().put("type", "string"));
        }
        if (body != null && code != 204) {
            Class<?> raw = rawClass(method.getGenericReturnType());
            if (ResponseBodyEmitter.class.isAssignableFrom(raw)) {
                success.putObject("content").putObject(MediaType.TEXT_EVENT_STREAM_VALUE)
                        .set("schema", NODES.objectNode().put("type", "string"));
            } else {
                ObjectNode content = success.putObject("content");
                for (String mediaType : produces(info, body)) {
                    content.putObject(mediaType).set("schema", binary(body) ? NODES.objectNode()
                            .put("type", "string").put("format", "binary") : schemas.of(body));
                }
            }
        }
        ObjectNode error = responses.putObject("default");
        error.put("description", "an error: the status says whose fault, field and message what to fix");
        error.putObject("content").putObject(MediaType.APPLICATION_JSON_VALUE).set("schema",
                NODES.objectNode().put("$ref", "#/components/schemas/Error"));
        return operation;
    }

    private static ObjectNode parameter(String in, String name, boolean required, ObjectNode schema,
            MethodParameter parameter) {
        ObjectNode node = NODES.objectNode();
        node.put("name", name);
        node.put("in", in);
        node.put("required", required);
        ApiDescription d = parameter.getParameterAnnotation(ApiDescription.class);
        if (d != null) {
            node.put("description", d.value());
        }
        node.set("schema", schema);
        return node;
    }

    private static String name(String declared, MethodParameter parameter) {
        if (declared != null && !declared.isEmpty()) {
            return declared;
        }
        String discovered = parameter.getParameterName();
        return discovered != null ? discovered : "arg" + parameter.getParameterIndex();
    }

    /** One of an annotation's aliased attributes (name, value): whichever was given. */
    private static String either(String name, String value) {
        return name.isEmpty() ? value : name;
    }

    private static boolean isFile(MethodParameter parameter) {
        Class<?> type = parameter.getParameterType();
        if (MultipartFile.class.isAssignableFrom(type) || MultipartFile[].class == type) {
            return true;
        }
        return parameter.getGenericParameterType() instanceof ParameterizedType p
                && p.getActualTypeArguments().length == 1 && p.getActualTypeArguments()[0] == MultipartFile.class;
    }

    private static List<String> consumes(RequestMappingInfo info) {
        Set<MediaType> types = info.getConsumesCondition().getConsumableMediaTypes();
        return types.isEmpty() ? List.of(MediaType.APPLICATION_JSON_VALUE) : types.stream().map(MediaType::toString).toList();
    }

    private static List<String> produces(RequestMappingInfo info, Type body) {
        Set<MediaType> types = info.getProducesCondition().getProducibleMediaTypes();
        if (!types.isEmpty()) {
            return types.stream().map(MediaType::toString).toList();
        }
        if (body == String.class) {
            return List.of(MediaType.TEXT_PLAIN_VALUE);
        }
        return List.of(binary(body) ? MediaType.APPLICATION_OCTET_STREAM_VALUE : MediaType.APPLICATION_JSON_VALUE);
    }

    private static boolean binary(Type body) {
        Class<?> raw = rawClass(body);
        return raw == byte[].class || org.springframework.core.io.Resource.class.isAssignableFrom(raw)
                || StreamingResponseBody.class.isAssignableFrom(raw);
    }

    /** The type written as the body: T of ResponseEntity&lt;T&gt; or Optional&lt;T&gt;; null for none. */
    private static Type responseType(Type returned) {
        Class<?> raw = rawClass(returned);
        if (raw == void.class || raw == Void.class) {
            return null;
        }
        if ((HttpEntity.class.isAssignableFrom(raw) || raw == Optional.class)) {
            if (returned instanceof ParameterizedType p) {
                return responseType(p.getActualTypeArguments()[0]);
            }
            return Object.class;
        }
        if (returned instanceof java.lang.reflect.WildcardType w) {
            return responseType(w.getUpperBounds()[0]);
        }
        return returned;
    }

    private static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        return Object.class;
    }

    private static ObjectNode errorSchema() {
        ObjectNode schema = NODES.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("status").put("type", "integer").put("description", "the HTTP status");
        properties.putObject("error").put("type", "string").put("description", "the status' reason phrase");
        properties.putObject("field").put("type", "string")
                .put("description", "the request field, parameter or header to blame, if one is");
        properties.putObject("message").put("type", "string").put("description", "what is wrong");
        schema.putArray("required").add("status").add("error").add("message");
        return schema;
    }
}
