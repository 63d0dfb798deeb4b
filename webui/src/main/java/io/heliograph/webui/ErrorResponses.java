package io.heliograph.webui;

import java.io.IOException;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingPathVariableException;
import org.springframework.web.bind.MissingRequestValueException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.ServletRequestBindingException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.multipart.support.MissingServletRequestPartException;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;

import io.heliograph.core.Refusal;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.webui.api.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Turns every exception a request ends with into an {@link ErrorBody}: the status says whose fault it
 * is, the field and message say what to fix. A server fault (500) answers a generic message with a
 * reference; its stack trace goes to the log under that reference, never into the response.
 */
final class ErrorResponses implements HandlerExceptionResolver, Ordered {

    private static final Logger LOG = LoggerFactory.getLogger(ErrorResponses.class);

    private final ResourceMappings mappings;

    ErrorResponses(ResourceMappings mappings) {
        this.mappings = mappings;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
            Exception ex) {
        ErrorBody body = describe(request, response, ex);
        if (body.status() == 500 && handler instanceof HandlerMethod method && !mappings.isMapped(method.getBean())) {
            // The app behind the path stopped while the request ran: its fault is being gone, not a bug.
            body = ErrorBody.of(503, null, "the app serving " + request.getRequestURI() + " stopped during the request");
        }
        if (response.isCommitted()) {
            LOG.warn("HTTP {} {}: {} after the response was committed", request.getMethod(), request.getRequestURI(),
                    ex.toString());
            return new ModelAndView();
        }
        try {
            body.writeTo(response);
        } catch (IOException e) {
            LOG.debug("HTTP {} {}: the client left before the error could be sent: {}", request.getMethod(),
                    request.getRequestURI(), e.toString());
        }
        return new ModelAndView();   // empty: handled, nothing more to render
    }

    ErrorBody describe(HttpServletRequest request, HttpServletResponse response, Exception ex) {
        ApiException api = apiExceptionIn(ex);
        if (api != null) {
            return ErrorBody.of(api.getStatusCode().value(), api.field(), api.message());
        }
        Refusal refusal = causeOf(ex, Refusal.class);
        if (refusal != null) {
            return ErrorBody.of(refusal.status(), refusal.field(), refusal.getMessage());
        }
        if (causeOf(ex, StoreUnavailableException.class) != null) {
            return ErrorBody.of(503, null, "the cluster's shared store cannot be reached now: "
                    + causeOf(ex, StoreUnavailableException.class).getMessage());
        }
        org.eclipse.jetty.http.HttpException jetty = jettyRefusal(ex);
        if (jetty != null) {
            // Jetty refusing what the client sent while Spring read it (a query it cannot decode, a broken part)
            return ErrorBody.of(jetty.getCode(), null, "the request cannot be read: " + jetty.getReason());
        }
        if (ex instanceof HttpMessageNotReadableException unreadable) {
            return unreadableBody(unreadable);
        }
        if (ex instanceof MethodArgumentTypeMismatchException mismatch) {
            String expected = mismatch.getRequiredType() != null ? describeType(mismatch.getRequiredType()) : "another type";
            return ErrorBody.of(400, mismatch.getName(), "'" + mismatch.getValue() + "' is not a valid " + expected);
        }
        if (ex instanceof MissingServletRequestParameterException missing) {
            return ErrorBody.of(400, missing.getParameterName(),
                    "query parameter '" + missing.getParameterName() + "' (" + missing.getParameterType() + ") is required");
        }
        if (ex instanceof MissingServletRequestPartException missing) {
            return ErrorBody.of(400, missing.getRequestPartName(),
                    "multipart part '" + missing.getRequestPartName() + "' is required");
        }
        if (ex instanceof MissingPathVariableException missing && !missing.isMissingAfterConversion()) {
            return serverFault(request, ex);   // the mapping and the method disagree: our bug, not the client's
        }
        if (ex instanceof MissingRequestValueException || ex instanceof ServletRequestBindingException) {
            return ErrorBody.of(400, null, ((ErrorResponse) ex).getBody().getDetail());
        }
        if (ex instanceof NoHandlerFoundException || ex instanceof NoResourceFoundException) {
            return ErrorBody.of(404, null, "no resource at " + request.getRequestURI());
        }
        if (ex instanceof HttpRequestMethodNotSupportedException notAllowed) {
            Set<HttpMethod> allowed = notAllowed.getSupportedHttpMethods();
            String allow = allowed == null ? "" : allowed.stream().map(HttpMethod::name).collect(Collectors.joining(", "));
            response.setHeader("Allow", allow);
            return ErrorBody.of(405, null, notAllowed.getMethod() + " is not allowed on " + request.getRequestURI()
                    + (allow.isEmpty() ? "" : "; allowed: " + allow));
        }
        if (ex instanceof HttpMediaTypeNotSupportedException unsupported) {
            String accepted = MediaType.toString(unsupported.getSupportedMediaTypes());
            if (!accepted.isEmpty()) {
                response.setHeader("Accept", accepted);
            }
            return ErrorBody.of(415, "Content-Type", "content type " + (unsupported.getContentType() == null
                    ? "(none)" : "'" + unsupported.getContentType() + "'") + " is not supported here"
                    + (accepted.isEmpty() ? "" : "; send " + accepted));
        }
        if (ex instanceof HttpMediaTypeNotAcceptableException notAcceptable) {
            return ErrorBody.of(406, "Accept", "cannot answer in the accepted media types; this resource produces "
                    + MediaType.toString(notAcceptable.getSupportedMediaTypes()));
        }
        if (ex instanceof MaxUploadSizeExceededException || ex instanceof RequestSizeLimit.TooLarge) {
            return ErrorBody.of(413, null, ex instanceof RequestSizeLimit.TooLarge tooLarge ? tooLarge.getMessage()
                    : "the upload is larger than the configured limit");
        }
        if (ex instanceof MultipartException) {
            // Parsing the body is all a multipart resolver does: what fails there is the client's body.
            // Jetty fails the rest of that body and closes the connection after the answer; saying so
            // keeps a client from sending its next request on a connection about to close.
            response.setHeader("Connection", "close");
            return ErrorBody.of(400, null, "the request says it is multipart (Content-Type '" + request.getContentType()
                    + "') but its body is not valid multipart: " + multipartProblem(ex));
        }
        if (ex instanceof ErrorResponse spring && spring.getStatusCode().is4xxClientError()) {
            return ErrorBody.of(spring.getStatusCode().value(), null, spring.getBody().getDetail());
        }
        if (ex instanceof ErrorResponse spring && spring.getStatusCode().value() == 503) {
            return ErrorBody.of(503, null, spring.getBody().getDetail());
        }
        return serverFault(request, ex);
    }

    private static ErrorBody serverFault(HttpServletRequest request, Exception ex) {
        String reference = UUID.randomUUID().toString().substring(0, 8);
        LOG.error("HTTP {} {} failed (reference {})", request.getMethod(), request.getRequestURI(), reference, ex);
        return ErrorBody.of(500, null, "internal error; the controller log has the details under reference " + reference);
    }

    /** A 4xx refusal of Jetty's in the exception's causes, outside a multipart body (told as a multipart problem). */
    private static org.eclipse.jetty.http.HttpException jettyRefusal(Throwable ex) {
        if (ex instanceof MultipartException) {
            return null;
        }
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof org.eclipse.jetty.http.HttpException http && http.getCode() >= 400 && http.getCode() < 500) {
                return http;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    /** An ApiException thrown directly, or by a record's constructor while Jackson built a request body. */
    private static ApiException apiExceptionIn(Throwable ex) {
        return causeOf(ex, ApiException.class);
    }

    /** {@code ex} or its first cause of a type, or null. */
    private static <T extends Throwable> T causeOf(Throwable ex, Class<T> type) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    private static ErrorBody unreadableBody(HttpMessageNotReadableException ex) {
        Throwable cause = ex.getCause();
        if (cause instanceof RequestSizeLimit.TooLarge tooLarge) {
            return ErrorBody.of(413, null, tooLarge.getMessage());
        }
        if (cause instanceof StreamConstraintsException limit) {
            return ErrorBody.of(400, null, limitMessage(limit));
        }
        if (cause instanceof UnrecognizedPropertyException unknown) {
            String known = unknown.getKnownPropertyIds() == null ? "" : unknown.getKnownPropertyIds().stream()
                    .map(Object::toString).sorted().collect(Collectors.joining(", "));
            return ErrorBody.of(400, path(unknown), "unknown field '" + unknown.getPropertyName() + "'"
                    + (known.isEmpty() ? "" : "; known fields: " + known));
        }
        if (cause instanceof InvalidFormatException invalid) {
            return ErrorBody.of(400, path(invalid), "'" + invalid.getValue() + "' is not a valid "
                    + describeType(invalid.getTargetType()));
        }
        if (cause instanceof ValueInstantiationException instantiation) {
            Throwable reason = instantiation.getCause() != null ? instantiation.getCause() : instantiation;
            return ErrorBody.of(400, path(instantiation), String.valueOf(reason.getMessage()));
        }
        if (cause instanceof MismatchedInputException mismatched) {
            String field = path(mismatched);
            String original = String.valueOf(mismatched.getOriginalMessage());
            if (original.startsWith("Cannot map `null` into type") && mismatched.getTargetType() != null) {
                return ErrorBody.of(400, field, "a value (" + describeType(mismatched.getTargetType())
                        + ") is required; it may be neither absent nor null");
            }
            if (mismatched.getTargetType() != null) {
                return ErrorBody.of(400, field, "expected " + describeType(mismatched.getTargetType())
                        + at(mismatched.getLocation()));
            }
            return ErrorBody.of(400, field, firstLine(mismatched.getOriginalMessage()) + at(mismatched.getLocation()));
        }
        if (cause instanceof JsonMappingException mapping) {
            return ErrorBody.of(400, path(mapping), firstLine(mapping.getOriginalMessage()));
        }
        if (cause instanceof JsonProcessingException syntax) {
            return ErrorBody.of(400, null, "malformed JSON" + at(syntax.getLocation()) + ": "
                    + firstLine(syntax.getOriginalMessage()));
        }
        String message = ex.getMessage() == null ? "" : ex.getMessage();
        if (message.startsWith("Required request body is missing")) {
            return ErrorBody.of(400, null, "a JSON request body is required");
        }
        return ErrorBody.of(400, null, "unreadable request body: " + firstLine(message));
    }

    /** A body over one of Jackson's read limits, nesting depth first among them ({@link RestJson#MAX_NESTING_DEPTH}). */
    private static String limitMessage(StreamConstraintsException limit) {
        String message = String.valueOf(limit.getOriginalMessage());
        if (message.startsWith("Document nesting depth")) {
            return "the JSON body nests arrays and objects deeper than the limit of " + RestJson.MAX_NESTING_DEPTH
                    + " levels";
        }
        // e.g. "Number value length (1001) exceeds the maximum allowed (1000, from `StreamReadConstraints...`)"
        int from = message.indexOf(", from `");
        return "the JSON body is refused: " + (from < 0 ? firstLine(message) : message.substring(0, from) + ")");
    }

    /** What the multipart parser said, innermost first (Jetty's reason, e.g. "Missing initial multi part boundary"). */
    private static String multipartProblem(Throwable ex) {
        Throwable root = ex;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName() : firstLine(message);
    }

    /** The JSON path of the offending value: {@code match.eth_type}, {@code actions[2].port}. */
    private static String path(JsonMappingException ex) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference ref : ex.getPath()) {
            if (ref.getFieldName() != null) {
                if (b.length() > 0) {
                    b.append('.');
                }
                b.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                b.append('[').append(ref.getIndex()).append(']');
            }
        }
        return b.length() == 0 ? null : b.toString();
    }

    private static String at(JsonLocation location) {
        if (location == null || location.getLineNr() < 0) {
            return "";
        }
        return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    /** The message without Jackson's source description, which says nothing useful to a client. */
    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int end = message.length();
        for (String tail : new String[] {"\n", " (start marker at", " at [Source:", " [Source:"}) {
            int at = message.indexOf(tail);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        return message.substring(0, end);
    }

    /** A type as a client knows it: integer, number, boolean, string, one of [A, B], array, object. */
    static String describeType(Class<?> type) {
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class
                || type == short.class || type == Short.class || type == byte.class || type == Byte.class
                || type == java.math.BigInteger.class) {
            return "integer";
        }
        if (type == double.class || type == Double.class || type == float.class || type == Float.class
                || type == java.math.BigDecimal.class) {
            return "number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "boolean (true or false)";
        }
        if (type == String.class || type == char.class || type == Character.class) {
            return "string";
        }
        if (type.isEnum()) {
            Object[] constants = type.getEnumConstants();
            StringBuilder b = new StringBuilder("value, one of [");
            for (int i = 0; i < constants.length; i++) {
                b.append(i == 0 ? "" : ", ").append(constants[i]);
            }
            return b.append(']').toString();
        }
        if (type.isArray() || java.util.Collection.class.isAssignableFrom(type)) {
            return "array";
        }
        if (java.time.temporal.Temporal.class.isAssignableFrom(type)) {
            return "ISO-8601 " + type.getSimpleName();
        }
        if (type.getName().startsWith("org.projectfloodlight.") || type.getName().startsWith("java.")) {
            return type.getSimpleName();
        }
        return "object (" + type.getSimpleName() + ")";
    }
}
