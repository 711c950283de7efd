package dev.baton.learning.library;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A topic library to seed: subjects with their topics, topics with their modules, each with optional aliases, in
 * this shape (JSON or YAML):
 *
 * <pre>{@code
 * subjects:
 *   - {id: physics, name: Physics, summary: ..., aliases: [...],
 *      topics: [{id: quantum-physics, name: Quantum physics, aliases: [quantum mechanics],
 *                modules: [{id: schrodinger-equation, name: Schrödinger equation}]}]}
 * }</pre>
 */
public record LibrarySeed(List<Entry> entries) {
    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{0,47}");

    /** One entry with every term it is found by: its name first, then its aliases (all normalised). */
    public record Entry(
            String id, Granularity granularity, String name, String parentId, String summary, List<String> terms) {
        public Entry {
            terms = List.copyOf(terms);
        }
    }

    public static final LibrarySeed NONE = new LibrarySeed(List.of());

    public LibrarySeed {
        entries = List.copyOf(entries);
    }

    /** @throws IllegalArgumentException naming the entry and field that is wrong */
    public static LibrarySeed parse(JsonNode root) {
        List<Entry> entries = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (JsonNode subject : root.path("subjects")) {
            String subjectId = add(entries, ids, subject, Granularity.SUBJECT, null);
            for (JsonNode topic : subject.path("topics")) {
                String topicId = add(entries, ids, topic, Granularity.TOPIC, subjectId);
                for (JsonNode module : topic.path("modules")) add(entries, ids, module, Granularity.MODULE, topicId);
            }
        }
        return new LibrarySeed(entries);
    }

    private static String add(
            List<Entry> entries, Set<String> ids, JsonNode node, Granularity granularity, String parent) {
        String id = node.path("id").asText("");
        if (!SLUG.matcher(id).matches())
            throw new IllegalArgumentException("library: id must be a slug of a-z, 0-9 and '-' (got '" + id + "')");
        if (!ids.add(id)) throw new IllegalArgumentException("library: id '" + id + "' appears twice");
        String name = node.path("name").asText("").strip();
        if (name.isEmpty()) throw new IllegalArgumentException("library: " + id + " needs a name");
        Set<String> terms = new LinkedHashSet<>();
        terms.add(TopicText.normalize(name));
        node.path("aliases").forEach(a -> terms.add(TopicText.normalize(a.asText())));
        terms.remove("");
        entries.add(
                new Entry(id, granularity, name, parent, node.path("summary").asText(""), List.copyOf(terms)));
        return id;
    }
}
