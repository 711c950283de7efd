package dev.baton.learning.content;

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
