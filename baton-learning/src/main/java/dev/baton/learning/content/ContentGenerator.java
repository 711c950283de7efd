package dev.baton.learning.content;

import dev.baton.core.auth.Principal;

/**
 * Writes learning material on a topic: in the server, the configured model through the normal model gateway.
 * Called on a worker thread, never during a turn.
 */
@FunctionalInterface
public interface ContentGenerator {

    /**
     * @return the material (plain text or Markdown)
     * @throws ContentGenerationException when it cannot be written now ({@code retryable}) or at all
     */
    String generate(ContentRequest request);

    /**
     * Whether {@code caller} may start a job now, asked before it is queued: a generator that calls a model takes
     * from the caller's rate limits and checks their budgets here, so a caller the runtime refuses a message is
     * refused a job with the same answer. Does nothing by default.
     *
     * @param agentId the agent of the conversation starting the job; null when none (REST)
     * @throws dev.baton.runtime.RefusalException when the caller is refused
     */
    default void admit(Principal caller, String agentId) {}

    /**
     * What to write about, and for whom.
     *
     * @param sessionId the session the model usage of the generation is recorded under (the job's conversation, or
     *     the job id when it has none)
     * @param agentId the agent of the job's conversation; null when it has none (the generator's own agent then)
     */
    record ContentRequest(
            String jobId, String topic, String tenantId, String userId, String sessionId, String agentId) {
        public ContentRequest {
            java.util.Objects.requireNonNull(sessionId, "sessionId");
        }
    }

    /** Why material could not be written. */
    final class ContentGenerationException extends RuntimeException {
        private final boolean retryable;

        public ContentGenerationException(String message, boolean retryable, Throwable cause) {
            super(message, cause);
            this.retryable = retryable;
        }

        public boolean retryable() {
            return retryable;
        }
    }
}
