package dev.baton.learning.library;

import java.util.List;

/** Where the topic library is kept and searched. */
public interface LibraryRepository {

    /**
     * Entries whose names or aliases are close to {@code normalizedQuery} ({@link TopicText#normalize}), each with its
     * best-matching term, best first, at most {@code limit}. Closeness is the database's: an exact term scores 1, a
     * term the query contains as whole words 0.9, and otherwise trigram similarity (SQLite's FTS5 trigram index,
     * PostgreSQL's pg_trgm), of at least {@code minScore}.
     */
    List<TopicMatch> search(String normalizedQuery, double minScore, int limit);

    /** Stores the entries and their terms that are not there yet (by id); safe when several instances seed at once. */
    void seed(List<LibrarySeed.Entry> entries);

    boolean isEmpty();
}
