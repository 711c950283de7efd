package dev.baton.runtime.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.domain.DomainException;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;

/**
 * A tool that calls one {@link BatonTool} method: arguments become parameter values through Jackson, the caller is
 * injected, the return value becomes the result JSON, and what the method throws becomes what the executor reports.
 */
final class MethodTool implements AnnotatedTool {
    private static final ObjectNode DONE = JsonNodeFactory.instance.objectNode().put("ok", true);

    private final ToolDefinition definition;
    private final boolean destructive;
    private final Object target;
    private final Method method;
    private final List<ParameterBinding> parameters;

    MethodTool(
            ToolDefinition definition,
            boolean destructive,
            Object target,
            Method method,
            List<ParameterBinding> parameters) {
        this.definition = definition;
        this.destructive = destructive;
        this.target = target;
        this.method = method;
        this.parameters = List.copyOf(parameters);
    }

    @Override
    public ToolDefinition definition() {
        return definition;
    }

    @Override
    public boolean destructive() {
        return destructive;
    }

    @Override
    public JsonNode execute(JsonNode arguments, ToolContext context) {
        Object[] values = new Object[parameters.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = parameters.get(i).value(arguments, context);
        }
        Object result;
        try {
            result = method.invoke(target, values);
        } catch (InvocationTargetException e) {
            throw thrownByTheMethod(e.getCause());
        } catch (IllegalAccessException e) {
            // access was granted when the tool was built; losing it is a bug here, not the model's doing
            throw new IllegalStateException("cannot call " + ToolMethods.describe(method), e);
        }
        return toJson(result);
    }

    /**
     * A refusal the method meant for the caller keeps its code and message; anything else leaves the executor
     * to report a bare failure and log the cause, so no stack trace or internal message reaches the model.
     */
    private RuntimeException thrownByTheMethod(Throwable thrown) {
        return switch (thrown) {
            case ToolException refusal -> refusal;
            case DomainException refusal -> new ToolException(refusal.code(), refusal.getMessage());
            case RuntimeException unexpected -> unexpected;
            case Error error -> throw error;
            case InterruptedException interrupted -> {
                Thread.currentThread().interrupt();
                yield new IllegalStateException(ToolMethods.describe(method) + " was interrupted", interrupted);
            }
            default -> new IllegalStateException(ToolMethods.describe(method) + " failed", thrown);
        };
    }

    /** void → {@code {"ok":true}}; a String → a JSON string; a JsonNode as it is; anything else through Jackson. */
    private JsonNode toJson(Object result) {
        if (method.getReturnType() == void.class || method.getReturnType() == Void.class) {
            return DONE;
        }
        Object value = result instanceof Optional<?> optional ? optional.orElse(null) : result;
        if (value == null) {
            return JsonNodeFactory.instance.nullNode();
        }
        if (value instanceof JsonNode json) {
            return json;
        }
        if (value instanceof CharSequence text) {
            return JsonNodeFactory.instance.textNode(text.toString());
        }
        return ArgumentJson.MAPPER.valueToTree(value);
    }
}
