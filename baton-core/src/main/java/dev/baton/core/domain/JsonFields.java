package dev.baton.core.domain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The fields of one JSON object sent to a domain, as a request body or as tool arguments. Reading refuses what
 * the domain does not accept, each time with the domain's own "malformed" refusal: a value that is not an
 * object, a field the domain does not know (so no path can smuggle in an owner or an id), a field of the wrong
 * type.
 */
public final class JsonFields {
    /** The most characters of an unknown field name a refusal echoes back. */
    private static final int MAX_ECHOED_NAME = 40;

    private final ObjectNode object;
    private final Function<String, ? extends DomainException> malformed;

    private JsonFields(ObjectNode object, Function<String, ? extends DomainException> malformed) {
        this.object = object;
        this.malformed = malformed;
    }

    /**
     * @param malformed makes the domain's refusal from a message, e.g. {@code TaskException::malformed}
     * @throws DomainException from {@code malformed} unless {@code body} is an object with only {@code allowed}
     *     fields
     */
    public static JsonFields of(
            JsonNode body, Set<String> allowed, Function<String, ? extends DomainException> malformed) {
        Objects.requireNonNull(allowed, "allowed");
        Objects.requireNonNull(malformed, "malformed");
        if (!(body instanceof ObjectNode object)) throw malformed.apply("expected a JSON object");
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw malformed.apply("unknown field '" + abbreviate(name) + "' (allowed: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
        return new JsonFields(object, malformed);
    }

    /** Whether the field is there at all, even as null. */
    public boolean has(String field) {
        return object.has(field);
    }

    /** Whether the field is there with a value other than null. */
    public boolean hasNonNull(String field) {
        return object.hasNonNull(field);
    }

    /** A required string: "{@code field} must be a string" when it is missing, null or not a string. */
    public String text(String field) {
        JsonNode value = object.get(field);
        if (value == null || !value.isTextual()) throw malformed.apply(field + " must be a string");
        return value.textValue();
    }

    /** A string, or null when the field is missing or null. */
    public String optionalText(String field) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) return null;
        return text(field);
    }

    /** A required array of strings: "{@code field} must be an array of strings" otherwise. */
    public List<String> texts(String field) {
        JsonNode value = object.get(field);
        if (value == null || !value.isArray()) throw malformed.apply(field + " must be an array of strings");
        List<String> texts = new ArrayList<>();
        for (JsonNode element : value) {
            if (!element.isTextual()) throw malformed.apply(field + " must be an array of strings");
            texts.add(element.textValue());
        }
        return texts;
    }

    private static String abbreviate(String value) {
        return value.length() <= MAX_ECHOED_NAME ? value : value.substring(0, MAX_ECHOED_NAME) + "...";
    }
}
