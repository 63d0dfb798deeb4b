package io.heliograph.webui.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What the OpenAPI document says of a value where its Java type says less than the server does: a
 * request body a handler reads as a {@code String} or {@code Object} to validate it itself (so that
 * its errors name the member), or a string that takes one of a fixed set of values. A generated client
 * then sends a typed object, and offers the values as an enum.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.RECORD_COMPONENT, ElementType.METHOD})
public @interface ApiSchema {

    /** The type whose schema the document shows instead of the declared one; {@code Void}: the declared one. */
    Class<?> type() default Void.class;

    /** The values a string takes, where the server accepts or writes only these. */
    String[] values() default {};

    /**
     * Whether every answer carries a value here, never null: the document marks the member required
     * and not nullable, so a generated client reads it without a check for null.
     */
    boolean required() default false;
}
