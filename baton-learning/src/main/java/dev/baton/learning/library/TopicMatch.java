package dev.baton.learning.library;

import java.util.Objects;

/**
 * A library entry a query found.
 *
 * @param matchedTerm the entry's name or alias that matched (normalised), e.g. "quantum physics"
 * @param score how close, 0 to 1: 1 for the very term, 0.9 for a term the query contains as whole words, otherwise
 *     the database's trigram similarity
 */
public record TopicMatch(LibraryEntry entry, String matchedTerm, double score) {
    public TopicMatch {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(matchedTerm, "matchedTerm");
    }
}
