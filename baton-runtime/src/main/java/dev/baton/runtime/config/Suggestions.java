package dev.baton.runtime.config;

import dev.baton.core.config.ConfigProblem;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import org.apache.commons.text.similarity.LevenshteinDistance;

/** "Did you mean" for unknown keys: the known key nearest by edit distance, when it is near enough to be a typo. */
final class Suggestions {
    private Suggestions() {}

    /** " (did you mean 'server'?)" for an unknown key with a near known one, else "". */
    static String didYouMean(ConfigProblem problem) {
        if (!problem.isUnknownKey()) return "";
        return nearest(problem.key(), problem.knownKeys())
                .map(k -> " (did you mean '" + k + "'?)")
                .orElse("");
    }

    /**
     * The candidate nearest to {@code word}, ignoring case, within a third of its length (at least 1, at most 3 edits)
     * — so {@code sever} finds {@code server} but {@code x} does not find {@code id}.
     */
    static Optional<String> nearest(String word, Collection<String> candidates) {
        int threshold = Math.max(1, Math.min(3, word.length() / 3));
        LevenshteinDistance distance = new LevenshteinDistance(threshold);
        String w = word.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            // -1: farther than the threshold
            int d = distance.apply(w, candidate.toLowerCase(Locale.ROOT));
            if (d >= 0 && d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return Optional.ofNullable(best);
    }
}
