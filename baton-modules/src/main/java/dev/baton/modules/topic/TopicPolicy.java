package dev.baton.modules.topic;

import dev.baton.core.agent.AgentConstraints;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * An agent's topic rules: the topics it may discuss (each recognised by keywords) and patterns it must refuse.
 *
 * @param topics the allow-list; empty means any topic is allowed
 * @param deny case-insensitive regular expressions; a message matching any of them is refused
 */
record TopicPolicy(List<Topic> topics, List<Pattern> deny) {

    TopicPolicy {
        topics = List.copyOf(topics);
        deny = List.copyOf(deny);
    }

    /** A topic and the words that show a message is about it (its name is always one of them). */
    record Topic(String name, List<Pattern> keywords) {
        Topic {
            Objects.requireNonNull(name, "name");
            keywords = List.copyOf(keywords);
        }

        boolean mentionedIn(String text) {
            return keywords.stream().anyMatch(k -> k.matcher(text).find());
        }
    }

    /**
     * Reads {@code constraints.topics} (names, or {@code {name, keywords}} objects) and {@code constraints.deny}
     * (regular expressions) of an agent's definition, adding the module's {@code keywords} per topic name.
     *
     * @throws IllegalArgumentException on an invalid deny pattern
     */
    static TopicPolicy from(AgentConstraints constraints, Map<String, List<String>> extraKeywords) {
        List<Topic> topics = new ArrayList<>();
        for (AgentConstraints.Topic t : constraints.topics()) {
            String name = t.name();
            if (name.isBlank()) {
                continue;
            }
            Set<String> words = new LinkedHashSet<>();
            words.add(name);
            words.addAll(t.keywords());
            words.addAll(extraKeywords.getOrDefault(name, List.of()));
            topics.add(new Topic(
                    name,
                    words.stream()
                            .filter(w -> !w.isBlank())
                            .map(TopicPolicy::keyword)
                            .toList()));
        }
        List<Pattern> deny = new ArrayList<>();
        for (String d : constraints.deny()) {
            try {
                deny.add(Pattern.compile(d, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("constraints.deny: invalid pattern: " + e.getDescription());
            }
        }
        return new TopicPolicy(topics, deny);
    }

    /** The first deny pattern {@code text} matches. */
    Optional<Pattern> denied(String text) {
        return deny.stream().filter(p -> p.matcher(text).find()).findFirst();
    }

    /** Whether {@code text} mentions an allowed topic (always true without an allow-list). */
    boolean onTopic(String text) {
        return topics.isEmpty() || topics.stream().anyMatch(t -> t.mentionedIn(text));
    }

    List<String> topicNames() {
        return topics.stream().map(Topic::name).toList();
    }

    /**
     * A keyword as a whole-word, case-insensitive pattern that also accepts word endings ("equation" finds
     * "equations") and any whitespace between the words of a phrase.
     */
    static Pattern keyword(String word) {
        String[] parts = word.trim().split("\\s+");
        StringBuilder regex = new StringBuilder("(?<![\\p{L}\\p{N}])");
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                regex.append("\\s+");
            }
            regex.append(Pattern.quote(parts[i]));
        }
        regex.append("\\p{L}{0,3}(?![\\p{L}\\p{N}])");
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }
}
