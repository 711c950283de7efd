package dev.baton.runtime.tool;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes one argument of a {@link BatonTool} method to the model, or one component of a record used as an
 * argument. Optional: without it an argument is described by its name and type alone.
 *
 * <p>An argument is required unless its type is {@code Optional} (or {@code OptionalInt} and kin), it carries an
 * annotation named {@code Nullable} (any package), or it says {@code required = false}. A primitive cannot be left
 * out: use its boxed type. Jackson's {@code @JsonPropertyDescription} works as well for descriptions; on a record
 * component, rename with Jackson's {@code @JsonProperty}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.FIELD})
public @interface Param {

    /** What the argument means, for the model. */
    String description() default "";

    /** Whether the model must send the argument; see the class comment for what else makes it optional. */
    boolean required() default true;

    /**
     * The argument's name in the schema; the parameter's compiled name when empty. Only for method parameters: a
     * record component is renamed with {@code @JsonProperty}.
     */
    String name() default "";
}
