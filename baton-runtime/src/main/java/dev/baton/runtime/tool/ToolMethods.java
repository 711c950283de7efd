package dev.baton.runtime.tool;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JavaType;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads the {@link BatonTool} methods of some objects into tools, checking everything that can be checked before
 * the first call: names, descriptions, timeouts, parameter names and types, access. Every problem found is listed in
 * one {@link IllegalArgumentException}, each naming its class and method, so one run shows all there is to fix.
 */
final class ToolMethods {
    private static final Pattern TOOL_NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

    private final ArgumentSchemaGenerator schemas = new ArgumentSchemaGenerator();
    private final List<String> problems = new ArrayList<>();
    private final List<AnnotatedTool> tools = new ArrayList<>();
    private final Set<String> names = new HashSet<>();

    private ToolMethods() {}

    /**
     * @throws IllegalArgumentException listing every problem with the targets' tool methods
     */
    static List<AnnotatedTool> of(Object... targets) {
        if (targets == null || targets.length == 0) {
            throw new IllegalArgumentException("AnnotatedTools: no objects given to read @BatonTool methods from");
        }
        ToolMethods reader = new ToolMethods();
        for (int i = 0; i < targets.length; i++) {
            if (targets[i] == null) {
                reader.problems.add("target #" + (i + 1) + " is null");
            } else {
                reader.read(targets[i]);
            }
        }
        if (!reader.problems.isEmpty()) {
            throw new IllegalArgumentException(
                    reader.problems.size() == 1
                            ? "@BatonTool " + reader.problems.getFirst()
                            : reader.problems.stream()
                                    .collect(Collectors.joining(
                                            "\n  - ",
                                            "@BatonTool: " + reader.problems.size() + " problems:\n  - ",
                                            "")));
        }
        return List.copyOf(reader.tools);
    }

    /** {@code com.acme.Notes#add(String, int)}: how every message names a method. */
    static String describe(Method method) {
        return method.getDeclaringClass().getName() + "#" + method.getName()
                + Arrays.stream(method.getParameterTypes())
                        .map(Class::getSimpleName)
                        .collect(Collectors.joining(", ", "(", ")"));
    }

    private void read(Object target) {
        List<Method> annotated = annotatedMethods(target.getClass());
        if (annotated.isEmpty()) {
            problems.add(target.getClass().getName() + " has no @BatonTool methods");
        }
        for (Method method : annotated) {
            AnnotatedTool tool = toolOf(target, method);
            if (tool != null) {
                tools.add(tool);
            }
        }
    }

    /**
     * The annotated methods of the class and its superclasses. The most derived annotated declaration of a method
     * wins; an override without the annotation keeps its superclass's, and a call still runs the override.
     */
    private static List<Method> annotatedMethods(Class<?> type) {
        Map<String, Method> bySignature = new LinkedHashMap<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            Method[] declared = c.getDeclaredMethods();
            // reflection returns methods in no particular order; sorting keeps tool order and messages stable
            Arrays.sort(declared, Comparator.comparing(ToolMethods::describe));
            for (Method method : declared) {
                if (!method.isBridge() && !method.isSynthetic() && method.isAnnotationPresent(BatonTool.class)) {
                    bySignature.putIfAbsent(method.getName() + Arrays.toString(method.getParameterTypes()), method);
                }
            }
        }
        return List.copyOf(bySignature.values());
    }

    /** The tool, or null when the method has problems (each added to {@link #problems}). */
    private AnnotatedTool toolOf(Object target, Method method) {
        int problemsBefore = problems.size();
        String where = describe(method);
        BatonTool annotation = method.getAnnotation(BatonTool.class);
        if (!Modifier.isPublic(method.getModifiers())) {
            problems.add(where + " is not public");
            return null;
        }
        Object receiver = Modifier.isStatic(method.getModifiers()) ? null : target;
        if (!method.canAccess(receiver) && !method.trySetAccessible()) {
            problems.add(where + " cannot be called from here: make "
                    + method.getDeclaringClass().getName() + " public, or open its package to baton-runtime");
            return null;
        }
        String name = annotation.name().isEmpty() ? method.getName() : annotation.name();
        if (!TOOL_NAME.matcher(name).matches()) {
            problems.add(where + ": tool name '" + name + "' must match " + TOOL_NAME.pattern());
        } else if (!names.add(name)) {
            problems.add(where + ": another method already defines a tool named '" + name + "'");
        }
        if (annotation.description().isBlank()) {
            problems.add(where + ": the description is blank; the model chooses tools by it");
        }
        Set<String> permissions = new LinkedHashSet<>(Arrays.asList(annotation.permissions()));
        if (permissions.stream().anyMatch(String::isBlank)) {
            problems.add(where + ": a permission is blank");
        }
        Duration timeout = timeout(where, annotation.timeout());
        Class<?> returned = method.getReturnType();
        if (Future.class.isAssignableFrom(returned) || CompletionStage.class.isAssignableFrom(returned)) {
            problems.add(where + " returns " + returned.getSimpleName()
                    + ": return the value itself; each tool call already runs on its own virtual thread");
        }
        List<ParameterBinding> bindings = new ArrayList<>();
        List<ArgumentSchemaGenerator.Property> properties = new ArrayList<>();
        for (Parameter parameter : method.getParameters()) {
            bind(where, parameter, bindings, properties);
        }
        if (problems.size() > problemsBefore) {
            return null;
        }
        ToolDefinition definition;
        try {
            definition = new ToolDefinition(
                    name,
                    annotation.description(),
                    schemas.schema(properties),
                    permissions,
                    timeout,
                    annotation.destructive(),
                    Set.of(),
                    annotation.idempotent(),
                    annotation.transactional());
        } catch (RuntimeException e) {
            problems.add(where + ": no JSON Schema could be generated for its parameters: " + e.getMessage());
            return null;
        }
        return new MethodTool(definition, annotation.destructive(), receiver, method, bindings);
    }

    private void bind(
            String where,
            Parameter parameter,
            List<ParameterBinding> bindings,
            List<ArgumentSchemaGenerator.Property> properties) {
        Class<?> type = parameter.getType();
        if (type == ToolContext.class) {
            bindings.add(new ParameterBinding.Context());
            return;
        }
        if (type == Principal.class) {
            bindings.add(new ParameterBinding.Caller());
            return;
        }
        Param param = parameter.getAnnotation(Param.class);
        String name;
        if (param != null && !param.name().isBlank()) {
            name = param.name();
        } else if (parameter.isNamePresent()) {
            name = parameter.getName();
        } else {
            problems.add(where + ": parameter names were not compiled in; compile with -parameters (Maven:"
                    + " <parameters>true</parameters> in maven-compiler-plugin) or name each with @Param(name = ...)");
            return;
        }
        if (properties.stream().anyMatch(p -> p.name().equals(name))) {
            problems.add(where + ": two parameters are both named '" + name + "'");
            return;
        }
        String problem = ArgumentTypes.problemWith(parameter.getParameterizedType());
        if (problem != null) {
            problems.add(where + ": parameter '" + name + "': " + problem);
            return;
        }
        boolean optional = ArgumentTypes.optional(parameter, parameter.getAnnotatedType(), type);
        if (optional && type.isPrimitive()) {
            problems.add(where + ": parameter '" + name + "' is a primitive and so cannot be optional; use "
                    + ArgumentTypes.boxed(type).getSimpleName());
            return;
        }
        Type schemaType = parameter.getParameterizedType();
        if (type == Optional.class) {
            // the schema describes what is inside; being optional shows as not required
            schemaType = ((ParameterizedType) schemaType).getActualTypeArguments()[0];
        }
        properties.add(new ArgumentSchemaGenerator.Property(name, schemaType, description(parameter), !optional));
        JavaType javaType = ArgumentJson.MAPPER.getTypeFactory().constructType(parameter.getParameterizedType());
        bindings.add(new ParameterBinding.Argument(name, javaType));
    }

    private static String description(Parameter parameter) {
        Param param = parameter.getAnnotation(Param.class);
        if (param != null && !param.description().isBlank()) {
            return param.description();
        }
        JsonPropertyDescription jackson = parameter.getAnnotation(JsonPropertyDescription.class);
        return jackson == null ? "" : jackson.value();
    }

    /** ISO-8601 ("PT30S") or "500ms", "10s", "2m", "1h"; null when empty (the agent's default applies). */
    private Duration timeout(String where, String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.isEmpty()) {
            return null;
        }
        Duration parsed = null;
        try {
            if (s.startsWith("p")) {
                parsed = Duration.parse(s.toUpperCase(Locale.ROOT));
            } else if (s.endsWith("ms")) {
                parsed = Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            } else if (s.length() > 1) {
                long n = Long.parseLong(s.substring(0, s.length() - 1));
                parsed = switch (s.charAt(s.length() - 1)) {
                    case 's' -> Duration.ofSeconds(n);
                    case 'm' -> Duration.ofMinutes(n);
                    case 'h' -> Duration.ofHours(n);
                    default -> null;
                };
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            parsed = null;
        }
        if (parsed == null || parsed.isNegative() || parsed.isZero()) {
            problems.add(where + ": timeout '" + text + "' is not a positive duration such as \"10s\", \"500ms\" or"
                    + " \"PT1M\"");
        }
        return parsed;
    }
}
