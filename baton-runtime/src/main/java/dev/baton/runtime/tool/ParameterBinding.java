package dev.baton.runtime.tool;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolException;
import java.util.Optional;

/** Where the value of one parameter of a tool method comes from: the caller's context, or one argument. */
sealed interface ParameterBinding {

    Object value(JsonNode arguments, ToolContext context);

    /** The whole {@link ToolContext} of the call. */
    record Context() implements ParameterBinding {
        @Override
        public Object value(JsonNode arguments, ToolContext context) {
            return context;
        }
    }

    /** The caller: {@code context.principal()}, never anything the model sent. */
    record Caller() implements ParameterBinding {
        @Override
        public Object value(JsonNode arguments, ToolContext context) {
            return context.principal();
        }
    }

    /**
     * The argument called {@code name}. Arguments were validated against the schema before the call, so a failure
     * here means a value the schema lets through but the Java type does not hold (an int beyond 2^31, a date in
     * another format): the model can fix it, so it hears about it.
     */
    record Argument(String name, JavaType type) implements ParameterBinding {
        @Override
        public Object value(JsonNode arguments, ToolContext context) {
            JsonNode value = arguments == null ? null : arguments.get(name);
            if (value == null || value.isNull()) {
                if (type.isPrimitive()) {
                    throw new ToolException("invalid_arguments", name + " is required");
                }
                return type.getRawClass() == Optional.class ? Optional.empty() : null;
            }
            try {
                return ArgumentJson.MAPPER.convertValue(value, type);
            } catch (IllegalArgumentException e) {
                // Jackson's message quotes the value: keep the model's text out of it
                throw new ToolException(
                        "invalid_arguments",
                        name + " could not be read as " + type.getRawClass().getSimpleName());
            }
        }
    }
}
