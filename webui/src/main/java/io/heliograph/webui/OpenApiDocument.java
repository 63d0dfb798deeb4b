package io.heliograph.webui;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;
import io.heliograph.webui.api.OperationId;

/**
 * The OpenAPI 3 document of the REST API as it is mapped at this moment: one operation per path and
 * method of every registered resource (an app that stops takes its paths out of the next document),
 * with path, query and header parameters, request bodies, response types and their schemas, all read
 * from the handler methods. {@link ApiDescription} adds what the code cannot say.
 */
public final class OpenApiDocument {

    static final String PATH = "/api/v1/openapi.json";
    /** What a declared operation id looks like: a verb and a domain noun in lower camel case. */
    static final Pattern OPERATION_ID = Pattern.compile("[a-z]+[A-Z][A-Za-z0-9]*");
    private static final String ERROR = "Error";
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
                            String verb = method.name().toLowerCase(java.util.Locale.ROOT);
                            ObjectNode operation = operation(entry.getKey(), handler, pattern, method, schemas);
                            if (item.get(verb) instanceof ObjectNode first) {
                                // one operation in two handlers, by the content type they consume
                                mergeBodies(first, operation);
                            } else {
                                item.set(verb, operation);
                            }
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
        uniqueOperationIds(byPath);
        ArrayNode tagList = document.putArray("tags");
        tags.forEach(tagList::add);

        ObjectNode components = document.putObject("components");
        ObjectNode schemaNodes = components.putObject("schemas");
        schemaNodes.set(ERROR, errorSchema());
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
            RequestMethod httpMethod, JsonSchemas schemas) {
        Method method = handler.getMethod();
        ObjectNode operation = NODES.objectNode();
        operation.putArray("tags").add(tag(handler));
        ApiDescription summary = method.getAnnotation(ApiDescription.class);
        if (summary != null) {
            operation.put("summary", summary.value());
        }
        operation.put("operationId", operationId(handler, openApiPath(pattern)));
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
            ApiSchema declared = parameter.getParameterAnnotation(ApiSchema.class);
            if (path != null) {
                parameters.add(parameter("path", name(either(path.name(), path.value()), parameter), true,
                        schema(schemas, type, declared), parameter));
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
                ObjectNode schema = schema(schemas, type, declared);
                if (!ValueConstants.DEFAULT_NONE.equals(query.defaultValue())) {
                    schema.put("default", query.defaultValue());
                }
                parameters.add(parameter("query", name(either(query.name(), query.value()), parameter), required, schema, parameter));
            } else if (header != null && !Map.class.isAssignableFrom(parameter.getParameterType())) {
                parameters.add(parameter("header", name(either(header.name(), header.value()), parameter),
                        header.required() && ValueConstants.DEFAULT_NONE.equals(header.defaultValue()),
                        schema(schemas, type, declared), parameter));
            } else if (body != null) {
                ObjectNode requestBody = operation.putObject("requestBody");
                requestBody.put("required", body.required());
                ObjectNode content = requestBody.putObject("content");
                for (String mediaType : consumes(info)) {
                    // raw bytes (a jar) are the body itself, not a JSON string of base64
                    content.putObject(mediaType).set("schema", declared == null && binary(type)
                            ? NODES.objectNode().put("type", "string").put("format", "binary")
                            : schema(schemas, type, declared));
                }
                ApiDescription d = parameter.getParameterAnnotation(ApiDescription.class);
                if (d != null) {
                    requestBody.put("description", d.value());
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
        errorResponses(responses, pattern, httpMethod, operation.has("requestBody"));
        return operation;
    }

    /**
     * The operation id of {@code handler} at {@code path}: its {@link OperationId} (an alias's for a path
     * listed there), or for a resource that declares none (an app built before ids were declared) one
     * made of its tag and method name, which a later release may change.
     */
    static String operationId(HandlerMethod handler, String path) {
        OperationId declared = handler.getMethod().getAnnotation(OperationId.class);
        if (declared != null) {
            for (OperationId.Alias alias : declared.aliases()) {
                if (alias.path().equals(path)) {
                    return alias.id();
                }
            }
            return declared.value();
        }
        String tag = tag(handler);
        String name = handler.getMethod().getName();
        return Character.toLowerCase(tag.charAt(0)) + tag.substring(1) + Character.toUpperCase(name.charAt(0))
                + name.substring(1);
    }

    /**
     * Every operation id once: a clash (two apps declaring the same id) keeps the first, in path order,
     * and numbers the others, so the document stays valid for generators while
     * {@link #contractProblems} names the clash.
     */
    private static void uniqueOperationIds(Map<String, ObjectNode> byPath) {
        Set<String> seen = new HashSet<>();
        byPath.values().forEach(item -> item.forEach(operation -> {
            String id = operation.get("operationId").asText();
            String unique = id;
            for (int n = 2; !seen.add(unique); n++) {
                unique = id + n;
            }
            ((ObjectNode) operation).put("operationId", unique);
        }));
    }

    /**
     * What the API promises generated clients and the project's tests hold every resource to: each
     * operation has a summary and a declared {@link OperationId} in lower camel case, each alias names
     * a path of its handler, and no two operations share an id (two handlers of one path and method,
     * which the document merges into one operation, share theirs). Empty when all is well.
     */
    public static List<String> contractProblems(Map<RequestMappingInfo, HandlerMethod> handlers) {
        List<String> problems = new ArrayList<>();
        Map<String, String> owners = new HashMap<>();
        handlers.entrySet().stream().sorted(Comparator.comparing(e -> e.getKey().toString())).forEach(entry -> {
            HandlerMethod handler = entry.getValue();
            Method method = handler.getMethod();
            String where = handler.getBeanType().getSimpleName() + "." + method.getName();
            List<String> paths = entry.getKey().getPatternValues().stream().filter(OpenApiDocument::describes)
                    .map(OpenApiDocument::openApiPath).sorted().toList();
            if (paths.isEmpty()) {
                return;
            }
            ApiDescription summary = method.getAnnotation(ApiDescription.class);
            if (summary == null || summary.value().isBlank()) {
                problems.add(where + " has no summary (@ApiDescription)");
            }
            OperationId declared = method.getAnnotation(OperationId.class);
            if (declared == null) {
                problems.add(where + " has no @OperationId");
                return;
            }
            untypedBody(entry.getKey(), handler).ifPresent(problem -> problems.add(where + ": " + problem));
            for (OperationId.Alias alias : declared.aliases()) {
                if (!paths.contains(alias.path())) {
                    problems.add(where + ": alias path " + alias.path() + " is not one of its paths " + paths);
                }
            }
            for (String path : paths) {
                for (RequestMethod verb : methods(entry.getKey())) {
                    String id = operationId(handler, path);
                    String operation = verb + " " + path;
                    if (!OPERATION_ID.matcher(id).matches()) {
                        problems.add(operation + " (" + where + "): operation id '" + id
                                + "' is not a verb and a noun in lower camel case");
                    }
                    String owner = owners.putIfAbsent(id, operation);
                    if (owner != null && !owner.equals(operation)) {
                        problems.add(operation + " (" + where + "): operation id '" + id + "' is " + owner + "'s too");
                    }
                }
            }
        });
        return problems;
    }

    /**
     * A JSON request body read as any JSON ({@code Object}, {@code JsonNode}, {@code String}) with no
     * {@link ApiSchema} to say its shape: a generated client could send nothing typed.
     */
    private static Optional<String> untypedBody(RequestMappingInfo mapping, HandlerMethod handler) {
        Set<MediaType> consumes = mapping.getConsumesCondition().getConsumableMediaTypes();
        if (!consumes.isEmpty() && consumes.stream().noneMatch(MediaType.APPLICATION_JSON::includes)) {
            return Optional.empty();   // text, a jar, a form: not JSON
        }
        for (MethodParameter parameter : handler.getMethodParameters()) {
            if (!parameter.hasParameterAnnotation(RequestBody.class)) {
                continue;
            }
            Class<?> type = parameter.getParameterType();
            boolean anyJson = type == Object.class || type == String.class || JsonNode.class.isAssignableFrom(type);
            ApiSchema declared = parameter.getParameterAnnotation(ApiSchema.class);
            if (anyJson && (declared == null || declared.type() == Void.class)) {
                return Optional.of("its request body is read as " + type.getSimpleName()
                        + " with no @ApiSchema(type = ...) saying its shape");
            }
        }
        return Optional.empty();
    }

    /** Two handlers of one path and method: the first's operation takes the second's body types too. */
    private static void mergeBodies(ObjectNode first, ObjectNode second) {
        JsonNode more = second.path("requestBody").path("content");
        if (!more.isObject()) {
            return;
        }
        ObjectNode body = first.has("requestBody") ? (ObjectNode) first.get("requestBody")
                : first.putObject("requestBody").put("required", true);
        ObjectNode content = body.has("content") ? (ObjectNode) body.get("content") : body.putObject("content");
        for (Iterator<Map.Entry<String, JsonNode>> it = more.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> type = it.next();
            if (!content.has(type.getKey())) {
                content.set(type.getKey(), type.getValue());
            }
        }
        body.put("required", body.path("required").asBoolean() && second.path("requestBody").path("required").asBoolean());
    }

    /** The schema of a parameter or body: its Java type's, or what {@link ApiSchema} says instead. */
    private static ObjectNode schema(JsonSchemas schemas, Type type, ApiSchema declared) {
        if (declared == null) {
            return schemas.of(type);
        }
        ObjectNode schema = schemas.of(declared.type() != Void.class ? declared.type() : type);
        if (declared.values().length > 0) {
            ArrayNode values = schema.putArray("enum");
            for (String value : declared.values()) {
                values.add(value);
            }
        }
        return schema;
    }

    /**
     * The errors any operation may answer, each with the API's error body ({@link ErrorBody}): 400 for
     * bad parameters or body, 401 without valid credentials (all but health), 404 for a path naming
     * nothing there (or an app stopped meanwhile), 409 for a write that clashes with stored state, 413
     * for a body over the size limit, and the rest under {@code default}.
     */
    private static void errorResponses(ObjectNode responses, String pattern, RequestMethod method, boolean body) {
        error(responses, "400", "bad input: field names the parameter, header or body member at fault");
        if (!HealthResource.PATH.equals(pattern)) {
            error(responses, "401", "no credentials, or wrong ones");
        }
        error(responses, "404", pattern.contains("{") ? "the path names nothing there (field names the part)"
                : "not mapped now (its app is stopped)");
        if (method == RequestMethod.POST || method == RequestMethod.PUT || method == RequestMethod.DELETE
                || method == RequestMethod.PATCH) {
            error(responses, "409", "the request clashes with stored state (field names what)");
        }
        if (body) {
            error(responses, "413", "the body is over the size limit");
        }
        error(responses, "default", "another error: the status says whose fault, field and message what to fix");
    }

    private static void error(ObjectNode responses, String status, String description) {
        if (responses.has(status)) {
            return;   // the operation answers this status as a success (health's 503 is DOWN)
        }
        ObjectNode response = responses.putObject(status);
        response.put("description", description);
        response.putObject("content").putObject(MediaType.APPLICATION_JSON_VALUE).set("schema",
                NODES.objectNode().put("$ref", "#/components/schemas/" + ERROR));
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

    /**
     * {@link ErrorBody}, the body of every error: {@code field} is left out, never null, when no field
     * is to blame, so it is the one member not required.
     */
    static ObjectNode errorSchema() {
        ObjectNode schema = NODES.objectNode().put("type", "object");
        schema.put("description", "The body of every error answer");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("status").put("type", "integer").put("format", "int32").put("description", "the HTTP status");
        properties.putObject("error").put("type", "string").put("description", "the status' reason phrase");
        properties.putObject("field").put("type", "string")
                .put("description", "the request field, parameter or header to blame; absent when none is");
        properties.putObject("message").put("type", "string").put("description", "what is wrong");
        schema.putArray("required").add("status").add("error").add("message");
        return schema;
    }
}
