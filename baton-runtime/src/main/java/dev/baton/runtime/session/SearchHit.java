package dev.baton.runtime.session;

import java.time.Instant;
import java.util.Objects;

/**
 * One earlier conversation in which a full-text search found the words.
 *
 * @param startedAt when that conversation started
 * @param snippet the matching passage, shortened around the words found
 */
public record SearchHit(String sessionId, String agentId, Instant startedAt, String snippet) {
    public SearchHit {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(startedAt, "startedAt");
        snippet = snippet == null ? "" : snippet;
    }
}
