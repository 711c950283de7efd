package dev.baton.core.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An agent's {@code constraints:}: what the system prompt's {@code ## Constraints} says, what the topic guard enforces
 * and what a webhook module is sent. Written as a text, a list of rules, or a mapping:
 *
 * <pre>{@code
 * constraints:
 *   topics:                          # what to stay on: names, or a name with keywords that show a message is on it
 *     - algebra
 *     - {name: geometry, keywords: [triangle, angle]}
 *   rules: [Never write graded work for the student.]
 *   deny: ["\\bcheat(ing)?\\b"]      # patterns the topic guard refuses (never shown to the model)
 *   tone: friendly                   # any other key: written to the prompt as "tone: friendly"
 * }</pre>
 *
 * @param text the whole constraints when written as a text; null otherwise
 * @param rules the rules (the list form, or {@code rules:} of the mapping)
 * @param topics {@code topics:} of the mapping; empty: no allow-list
 * @param deny {@code deny:} of the mapping: regular expressions for the topic guard
 * @param other the mapping's other keys, in the order written, with their values as written (a webhook module may
 *     read keys of its own)
 * @param form how it was written, which a webhook is sent back
 */
public record AgentConstraints(
        String text,
        List<String> rules,
        List<Topic> topics,
        List<String> deny,
        Map<String, JsonNode> other,
        Form form) {

    /** How the constraints were written. */
    public enum Form {
        /** {@code constraints: Be brief.} */
        TEXT,
        /** {@code constraints: [rule, rule]} */
        RULES,
        /** {@code constraints: {topics: …, rules: …, deny: …, …}} (also: none at all) */
        MAPPING
    }

    /** A topic to stay on, recognised by its name and its keywords. */
    public record Topic(String name, List<String> keywords) {
        public Topic {
            Objects.requireNonNull(name, "name");
            keywords = List.copyOf(keywords == null ? List.of() : keywords);
        }

        /** A topic known by its name alone. */
        public static Topic of(String name) {
            return new Topic(name, List.of());
        }
    }

    /** No constraints. */
    public static final AgentConstraints NONE =
            new AgentConstraints(null, List.of(), List.of(), List.of(), Map.of(), Form.MAPPING);

    public AgentConstraints {
        rules = List.copyOf(rules == null ? List.of() : rules);
        topics = List.copyOf(topics == null ? List.of() : topics);
        deny = List.copyOf(deny == null ? List.of() : deny);
        // in the order written; values copied so that nothing outside changes them
        Map<String, JsonNode> copied = new LinkedHashMap<>();
        if (other != null) other.forEach((k, v) -> copied.put(k, v.deepCopy()));
        other = java.util.Collections.unmodifiableMap(copied);
        form = form == null ? Form.MAPPING : form;
        if (form == Form.TEXT) Objects.requireNonNull(text, "text");
    }

    /** Constraints that are one text. */
    public static AgentConstraints text(String text) {
        return new AgentConstraints(text, List.of(), List.of(), List.of(), Map.of(), Form.TEXT);
    }

    /** Constraints that are a list of rules. */
    public static AgentConstraints rules(List<String> rules) {
        return new AgentConstraints(null, rules, List.of(), List.of(), Map.of(), Form.RULES);
    }

    /** These constraints (as a mapping) with {@code topics} to stay on. */
    public AgentConstraints withTopics(List<Topic> newTopics) {
        return new AgentConstraints(null, rules, newTopics, deny, other, Form.MAPPING);
    }

    /** These constraints (as a mapping) with the topic guard refusing messages that match {@code patterns}. */
    public AgentConstraints withDeny(List<String> patterns) {
        return new AgentConstraints(null, rules, topics, patterns, other, Form.MAPPING);
    }

    /** Whether there are none. */
    public boolean isEmpty() {
        return text == null && rules.isEmpty() && topics.isEmpty() && deny.isEmpty() && other.isEmpty();
    }

    /**
     * Reads an agent's {@code constraints:} (missing: {@link #NONE}). A single value where a list is expected is a
     * list of one; values are taken as text.
     */
    public static AgentConstraints from(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) return NONE;
        if (node.isValueNode()) return text(node.asText());
        if (node.isArray()) return rules(texts(node));
        List<String> rules = List.of();
        List<Topic> topics = List.of();
        List<String> deny = List.of();
        Map<String, JsonNode> other = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            JsonNode v = e.getValue();
            switch (e.getKey()) {
                case "rules" -> rules = texts(v);
                case "topics" -> topics = topics(v);
                case "deny" -> deny = texts(v);
                default -> other.put(e.getKey(), v);
            }
        }
        return new AgentConstraints(null, rules, topics, deny, other, Form.MAPPING);
    }

    /** The constraints as written (the webhook wire's {@code agent.constraints}); an empty object for none. */
    public JsonNode toJson() {
        JsonNodeFactory json = JsonNodeFactory.instance;
        switch (form) {
            case TEXT -> {
                return json.textNode(text);
            }
            case RULES -> {
                ArrayNode list = json.arrayNode();
                rules.forEach(list::add);
                return list;
            }
            default -> {
                ObjectNode mapping = json.objectNode();
                if (!topics.isEmpty()) {
                    ArrayNode list = mapping.putArray("topics");
                    for (Topic t : topics) {
                        if (t.keywords().isEmpty()) {
                            list.add(t.name());
                        } else {
                            ObjectNode topic = list.addObject().put("name", t.name());
                            t.keywords().forEach(topic.putArray("keywords")::add);
                        }
                    }
                }
                if (!rules.isEmpty()) rules.forEach(mapping.putArray("rules")::add);
                if (!deny.isEmpty()) deny.forEach(mapping.putArray("deny")::add);
                other.forEach((k, v) -> mapping.set(k, v.deepCopy()));
                return mapping;
            }
        }
    }

    private static List<Topic> topics(JsonNode v) {
        List<Topic> topics = new ArrayList<>();
        for (JsonNode t : items(v)) {
            if (t.isObject()) topics.add(new Topic(t.path("name").asText(""), texts(t.path("keywords"))));
            else topics.add(Topic.of(t.asText("")));
        }
        return topics;
    }

    private static List<String> texts(JsonNode v) {
        List<String> texts = new ArrayList<>();
        items(v).forEach(i -> texts.add(i.asText()));
        return texts;
    }

    private static Iterable<JsonNode> items(JsonNode v) {
        if (v == null || v.isMissingNode() || v.isNull()) return List.of();
        return v.isArray() ? v : List.of(v);
    }
}
