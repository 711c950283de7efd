package dev.baton.learning.library;

import java.util.List;

/**
 * What a library search found, as the learning agent's design names it.
 *
 * @param exactMatch the entry one of whose names is the query itself (after normalising case, accents and
 *     punctuation), or null
 * @param fuzzyMatches other entries close to the query, best first
 */
public record TopicSearch(TopicMatch exactMatch, List<TopicMatch> fuzzyMatches) {
    public TopicSearch {
        fuzzyMatches = List.copyOf(fuzzyMatches);
    }

    public boolean found() {
        return exactMatch != null || !fuzzyMatches.isEmpty();
    }

    /** The best match there is: the exact one, else the closest fuzzy one, else null. */
    public TopicMatch best() {
        return exactMatch != null ? exactMatch : fuzzyMatches.isEmpty() ? null : fuzzyMatches.getFirst();
    }
}
