package io.heliograph.webui.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a resource, an operation, a parameter or a field of a request or response means, for the
 * OpenAPI document at {@code /api/v1/openapi.json}: on a handler method it is the operation's summary,
 * on a {@code @RestController} class the description of its tag, on a parameter or a record component
 * its description. Everything else in the document (paths, methods, parameters, types) comes from the
 * code itself, so only the meaning needs saying.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.PARAMETER, ElementType.FIELD,
        ElementType.RECORD_COMPONENT})
public @interface ApiDescription {

    String value();
}
