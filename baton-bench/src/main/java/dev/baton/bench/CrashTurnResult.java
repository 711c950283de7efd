package dev.baton.bench;

/**
 * What a client of {@link CrashDrill} got for one turn, and what it took.
 *
 * @param sessionId the session the turn was sent in
 * @param answer the answer the client got (a stream's chunks, or the JSON answer); null when it got none
 * @param messageId the assistant message the client was told about; null when it got none
 * @param retries requests sent again (after a broken connection, a 5xx, a failed turn or a 409)
 * @param conflicts 409 answers (the key still in use, the session busy)
 * @param replayed the answer came from a retry replaying the turn (header {@code Idempotent-Replayed})
 * @param waitAfterKillMillis from the kill that broke the client's connection to its answer; -1 when none did
 * @param failure why the client gave up; null when it got an answer
 */
record CrashTurnResult(
        CrashTurn turn,
        String sessionId,
        String answer,
        String messageId,
        int retries,
        int conflicts,
        boolean replayed,
        long waitAfterKillMillis,
        String failure) {}
