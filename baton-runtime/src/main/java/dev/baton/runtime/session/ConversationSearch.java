package dev.baton.runtime.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Full-text search over a user's own earlier conversations (SQLite FTS5, PostgreSQL tsvector in the JDBC store). */
public interface ConversationSearch {
    /** At most this many words of a query are used. */
    int MAX_TERMS = 12;

    /**
     * The user's conversations whose messages contain every word of {@code query}, best match first, one hit per
     * conversation.
     *
     * @param excludeSessionId a session to leave out (the one asking); null leaves none out
     * @param limit at most this many conversations, 1..50
     */
    List<SearchHit> search(String tenantId, String userId, String query, String excludeSessionId, int limit);

    /** The plain words of a query, lower-cased, at most {@value #MAX_TERMS}; empty when it has none. */
    static List<String> terms(String query) {
        List<String> terms = new ArrayList<>();
        if (query == null) return terms;
        Matcher m = Words.WORD.matcher(query);
        while (m.find() && terms.size() < MAX_TERMS) terms.add(m.group().toLowerCase(Locale.ROOT));
        return terms;
    }

    /** Holds the pattern out of the interface's public surface. */
    final class Words {
        private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

        private Words() {}
    }
}
