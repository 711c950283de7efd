package dev.baton.learning.library;

import dev.baton.core.auth.Principal;
import dev.baton.learning.LearningException;
import dev.baton.learning.LearningPermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The topic library the learning agent works from: subjects, their topics and the topics' modules, searched with
 * typo tolerance by the database ({@link LibraryRepository#search}).
 */
public final class LibraryService {
    /** The least similarity a fuzzy match needs (pg_trgm's default threshold). */
    public static final double MIN_SCORE = 0.3;

    public static final int DEFAULT_LIMIT = 5;
    public static final int MAX_LIMIT = 20;
    public static final int MAX_QUERY = 200;

    private final LibraryRepository repository;

    public LibraryService(LibraryRepository repository) {
        this.repository = Objects.requireNonNull(repository, "repository");
    }

    /**
     * Finds library entries by name or alias, forgiving misspellings ("quantam fisics", "ledarship").
     *
     * @param limit 1-20 fuzzy matches at most; null for 5
     * @throws LearningException invalid_argument for a query without letters or digits, or a limit out of range
     */
    public TopicSearch search(Principal principal, String query, Integer limit) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        int max = limit == null ? DEFAULT_LIMIT : limit;
        if (max < 1 || max > MAX_LIMIT) {
            throw LearningException.invalidArgument("limit must be 1-" + MAX_LIMIT + " (got " + max + ")");
        }
        String q = normalized(query, "query");
        TopicMatch exact = null;
        List<TopicMatch> fuzzy = new ArrayList<>();
        for (TopicMatch match : repository.search(q, MIN_SCORE, max + 1)) {
            if (exact == null && match.matchedTerm().equals(q)) exact = match;
            else if (fuzzy.size() < max) fuzzy.add(match);
        }
        return new TopicSearch(exact, fuzzy);
    }

    /**
     * Says whether a request is a subject, a topic or a module: from the library entry it names when there is one
     * (fillers such as "teach me" or "please" around a known name do not matter), else from how specific it reads.
     *
     * @throws LearningException invalid_argument for an input without letters or digits
     */
    public GranularityVerdict detectGranularity(Principal principal, String input) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        String q = normalized(input, "input");
        List<TopicMatch> matches = repository.search(q, MIN_SCORE, 1);
        if (!matches.isEmpty()) return fromLibrary(matches.getFirst());
        int words = q.split(" ").length;
        Granularity guess = words <= 1 ? Granularity.SUBJECT : words <= 3 ? Granularity.TOPIC : Granularity.MODULE;
        return new GranularityVerdict(
                guess,
                "'" + LearningException.echo(input.strip()) + "' is not in the topic library; judged by how specific it"
                        + " reads (" + words + (words == 1 ? " word" : " words") + "): " + meaning(guess) + ".",
                null);
    }

    private static GranularityVerdict fromLibrary(TopicMatch match) {
        LibraryEntry entry = match.entry();
        String where = entry.path().size() > 1
                ? " within "
                        + String.join(
                                " > ", entry.path().subList(0, entry.path().size() - 1))
                : "";
        String how = match.score() >= 1.0
                ? "named exactly"
                : match.score() >= 0.9 ? "named in the request" : "the closest spelling, '" + match.matchedTerm() + "'";
        return new GranularityVerdict(
                entry.granularity(),
                "'" + entry.name() + "' is a " + entry.granularity().wireName() + where + " in the topic library ("
                        + how + "): " + meaning(entry.granularity()) + ".",
                match);
    }

    private static String meaning(Granularity granularity) {
        return switch (granularity) {
            case SUBJECT -> "a broad domain; guide the learner to a topic within it";
            case TOPIC -> "a focused skill or concept";
            case MODULE -> "a very specific module; it belongs to a topic";
        };
    }

    private static String normalized(String text, String field) {
        if (text == null) throw LearningException.invalidArgument(field + " is required");
        if (text.length() > MAX_QUERY)
            throw LearningException.invalidArgument(field + " must be at most " + MAX_QUERY + " characters");
        String q = TopicText.normalize(text);
        if (q.isEmpty()) throw LearningException.invalidArgument(field + " must contain letters or digits");
        return q;
    }
}
