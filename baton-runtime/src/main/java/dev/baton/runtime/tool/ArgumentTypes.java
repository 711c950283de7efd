package dev.baton.runtime.tool;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Which Java types a tool argument may have: those whose generated JSON Schema and whose Jackson mapping agree, and
 * which describe a closed shape (so the schema can forbid fields the model invents). Also the one rule for which
 * arguments and record components are optional.
 */
final class ArgumentTypes {
    static final String SUPPORTED = "use a primitive or its box, String, BigDecimal, BigInteger, UUID, URI, a java.time"
            + " value, an enum, a record of these, a List, Set, Collection or array of these, or an Optional of these";

    private static final Set<Class<?>> SCALARS = Set.of(
            String.class,
            boolean.class,
            Boolean.class,
            char.class,
            Character.class,
            short.class,
            Short.class,
            int.class,
            Integer.class,
            long.class,
            Long.class,
            float.class,
            Float.class,
            double.class,
            Double.class,
            BigDecimal.class,
            BigInteger.class,
            UUID.class,
            URI.class,
            Instant.class,
            LocalDate.class,
            LocalDateTime.class,
            LocalTime.class,
            OffsetDateTime.class,
            OffsetTime.class,
            ZonedDateTime.class,
            Duration.class,
            Period.class,
            ZoneId.class);

    private static final Set<Class<?>> CONTAINERS = Set.of(List.class, Set.class, Collection.class);

    private ArgumentTypes() {}

    /** Why values of {@code type} cannot be tool arguments, or null when they can. */
    static String problemWith(Type type) {
        return check(type, new HashSet<>());
    }

    /**
     * Whether the model may leave the argument or record component out: an {@code Optional}, anything annotated
     * {@code Nullable} (whichever library it comes from), or {@code @Param(required = false)}.
     */
    static boolean optional(AnnotatedElement declaration, AnnotatedType use, Class<?> type) {
        if (type == Optional.class) {
            return true;
        }
        Param param = declaration.getAnnotation(Param.class);
        if (param != null && !param.required()) {
            return true;
        }
        // a declaration annotation (javax, jakarta, JetBrains) or a type-use one (JSpecify, Checker Framework)
        return hasNullable(declaration.getAnnotations()) || hasNullable(use.getAnnotations());
    }

    private static boolean hasNullable(Annotation[] annotations) {
        for (Annotation annotation : annotations) {
            if (annotation.annotationType().getSimpleName().equals("Nullable")) {
                return true;
            }
        }
        return false;
    }

    private static String check(Type type, Set<Class<?>> seenRecords) {
        if (type instanceof Class<?> c) {
            return checkClass(c, seenRecords);
        }
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            if (CONTAINERS.contains(raw) || raw == Optional.class) {
                return check(p.getActualTypeArguments()[0], seenRecords);
            }
            return type.getTypeName() + " is not supported; " + SUPPORTED;
        }
        if (type instanceof GenericArrayType array) {
            return check(array.getGenericComponentType(), seenRecords);
        }
        return type.getTypeName() + " is not supported: type variables and wildcards have no schema; " + SUPPORTED;
    }

    private static String checkClass(Class<?> c, Set<Class<?>> seenRecords) {
        if (SCALARS.contains(c)) {
            return null;
        }
        if (c.isEnum()) {
            for (Object constant : c.getEnumConstants()) {
                if (ArgumentJson.enumText((Enum<?>) constant) == null) {
                    return "enum " + c.getName() + " is not written as text by Jackson (see its @JsonValue); "
                            + SUPPORTED;
                }
            }
            return null;
        }
        if (c == byte[].class || c == byte.class || c == Byte.class) {
            // Jackson reads byte[] as base64 text while the schema would say "array": the two must agree
            return c.getSimpleName() + " is not supported; " + SUPPORTED;
        }
        if (c.isArray()) {
            return checkClass(c.getComponentType(), seenRecords);
        }
        if (CONTAINERS.contains(c) || c == Optional.class) {
            return "raw " + c.getSimpleName() + " is not supported: say what it holds, e.g. " + c.getSimpleName()
                    + "<String>";
        }
        if (c.isRecord()) {
            return seenRecords.add(c) ? checkRecord(c, seenRecords) : null;
        }
        return c.getName() + " is not supported; " + SUPPORTED;
    }

    private static String checkRecord(Class<?> record, Set<Class<?>> seenRecords) {
        if (record.getTypeParameters().length > 0) {
            return "generic record " + record.getName() + " is not supported; " + SUPPORTED;
        }
        for (RecordComponent component : record.getRecordComponents()) {
            String where = "component '" + component.getName() + "' of " + record.getName();
            Field field = fieldOf(record, component);
            Param param = field == null ? null : field.getAnnotation(Param.class);
            if (param != null && !param.name().isEmpty()) {
                return where + ": @Param(name) only renames method parameters; rename a record component with"
                        + " @JsonProperty";
            }
            if (component.getType().isPrimitive()
                    && field != null
                    && optional(field, field.getAnnotatedType(), component.getType())) {
                return where + " is a primitive and so cannot be optional; use "
                        + boxed(component.getType()).getSimpleName();
            }
            String problem = check(component.getGenericType(), seenRecords);
            if (problem != null) {
                return where + ": " + problem;
            }
        }
        return null;
    }

    private static Field fieldOf(Class<?> record, RecordComponent component) {
        try {
            return record.getDeclaredField(component.getName());
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    static Class<?> boxed(Class<?> primitive) {
        return java.lang.invoke.MethodType.methodType(primitive).wrap().returnType();
    }
}
