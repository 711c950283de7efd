package dev.baton.runtime.tool;

import dev.baton.core.tool.ToolSource;
import java.util.List;

/**
 * A {@link ToolSource} whose tools are the {@link BatonTool} methods of plain Java objects. Everything is checked
 * when the source is built, so a mistake fails at startup rather than at the model's first call.
 *
 * <p>What the model sees: the tool's name and description from the annotation, and a JSON Schema generated from the
 * method's parameters: one property per parameter (named as compiled with {@code -parameters}, or by
 * {@link Param#name()}), described by {@link Param#description()} or Jackson's {@code @JsonPropertyDescription},
 * required unless optional (see {@link Param}), and {@code "additionalProperties": false} on every object. Records
 * become nested objects and enums become {@code "enum"}s of their Jackson names.
 *
 * <p>What the model never sees: a parameter of type {@link dev.baton.core.tool.ToolContext} or
 * {@link dev.baton.core.auth.Principal} gets the caller of the call, who is always the signed-in user.
 *
 * <p>On a call, the core executor has already checked the permissions and validated the arguments against the
 * schema; the arguments are then converted with Jackson and the method is invoked. It returns nothing
 * ({@code {"ok":true}}), a String (a JSON string), a {@code JsonNode} (as it is) or anything Jackson writes. A
 * {@link dev.baton.core.tool.ToolException} or a domain's {@link dev.baton.core.domain.DomainException} reaches the
 * model with its code and message; any other exception is logged and the model only learns that the tool failed.
 */
public interface AnnotatedTools extends ToolSource {

    /** The source name {@link #from(Object...)} uses. */
    String DEFAULT_NAME = "annotated";

    /**
     * The tools of every {@link BatonTool} method of the targets (public methods of their classes and superclasses),
     * in a source named {@value #DEFAULT_NAME}.
     *
     * @throws IllegalArgumentException listing every problem found, each naming its class and method: a tool name
     *     that is not function-name safe or is used twice, a blank description, a bad timeout, a non-public method, a
     *     parameter type with no schema, missing parameter names, an object without any tool method
     */
    static AnnotatedTools from(Object... targets) {
        return named(DEFAULT_NAME, targets);
    }

    /**
     * As {@link #from(Object...)}, in a source with the given name (for logs and circuit breakers).
     *
     * @throws IllegalArgumentException as {@link #from(Object...)} does
     */
    static AnnotatedTools named(String name, Object... targets) {
        return new AnnotatedToolSource(name, ToolMethods.of(targets));
    }

    /** The same tools as {@link #tools()}, typed with what the annotation adds, such as {@link AnnotatedTool#destructive()}. */
    List<AnnotatedTool> annotatedTools();
}
