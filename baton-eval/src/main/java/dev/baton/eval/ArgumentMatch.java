package dev.baton.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Whether a tool call's arguments are the ones a suite expects. {@code equal} is a subset: every key it names must be
 * present with that value (text compared without regard to case or surrounding spaces, numbers by value, mappings
 * key by key in the same way); other arguments may be anything. {@code matching} names keys whose value, as text,
 * must contain a match of a regular expression.
 */
record ArgumentMatch(JsonNode equal, Map<String, Pattern> matching) {

    ArgumentMatch {
        matching = Map.copyOf(matching);
    }

    /** Empty when {@code arguments} match; else the first difference, for the report. */
    Optional<String> mismatch(JsonNode arguments) {
        Optional<String> different = differs("", equal, arguments);
        if (different.isPresent()) return different;
        for (var e : matching.entrySet()) {
            JsonNode value = arguments.path(e.getKey());
            if (value.isMissingNode() || value.isNull()) return Optional.of(e.getKey() + " is missing");
            String text = value.isValueNode() ? value.asText() : value.toString();
            if (!e.getValue().matcher(text).find())
                return Optional.of(e.getKey() + " is '" + text + "', not matching /"
                        + e.getValue().pattern() + "/");
        }
        return Optional.empty();
    }

    private static Optional<String> differs(String path, JsonNode expected, JsonNode actual) {
        if (expected == null || expected.isMissingNode()) return Optional.empty();
        if (expected.isObject()) {
            for (var e : expected.properties()) {
                String key = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                JsonNode value = actual.path(e.getKey());
                if (value.isMissingNode()) return Optional.of(key + " is missing");
                Optional<String> inner = differs(key, e.getValue(), value);
                if (inner.isPresent()) return inner;
            }
            return Optional.empty();
        }
        if (expected.isArray()) {
            if (!actual.isArray() || actual.size() != expected.size())
                return Optional.of(path + " is " + actual + ", expected " + expected);
            for (int i = 0; i < expected.size(); i++) {
                Optional<String> inner = differs(path + "[" + i + "]", expected.get(i), actual.get(i));
                if (inner.isPresent()) return inner;
            }
            return Optional.empty();
        }
        if (expected.isNumber() && actual.isNumber())
            return expected.decimalValue().compareTo(actual.decimalValue()) == 0
                    ? Optional.empty()
                    : Optional.of(path + " is " + actual + ", expected " + expected);
        if (expected.isNull())
            return actual.isNull() ? Optional.empty() : Optional.of(path + " is " + actual + ", expected null");
        if (actual.isValueNode() && normal(expected.asText()).equals(normal(actual.asText()))) return Optional.empty();
        return Optional.of(path + " is " + actual + ", expected " + expected);
    }

    private static String normal(String s) {
        return s.strip().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        if (equal != null && !equal.isMissingNode() && !equal.isEmpty()) s.append(equal);
        matching.forEach((k, p) -> s.append(s.isEmpty() ? "" : ", ")
                .append(k)
                .append(" ~ /")
                .append(p.pattern())
                .append('/'));
        return s.toString();
    }
}
