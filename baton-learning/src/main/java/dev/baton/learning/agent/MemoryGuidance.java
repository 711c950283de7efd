package dev.baton.learning.agent;

import dev.baton.learning.content.ContentJob;
import dev.baton.learning.memory.AgentMemory;
import dev.baton.learning.memory.DecisionPoint;
import java.util.List;

/**
 * The learning agent's memory of a learner as a paragraph of its system prompt ({@code ## Additional Guidance}):
 * the current topic, the question it awaits an answer to, its latest decisions and the materials being prepared.
 * Empty when there is nothing to remember.
 */
final class MemoryGuidance {
    /** How many decisions the prompt shows (the memory keeps more). */
    static final int DECISIONS_SHOWN = 5;

    static final int CONTENT_SHOWN = 5;

    private MemoryGuidance() {}

    static String of(AgentMemory memory, List<ContentJob> content) {
        StringBuilder text = new StringBuilder();
        var state = memory.state();
        if (state.currentTopic() != null) {
            line(
                    text,
                    "Current topic: " + state.currentTopic()
                            + (state.currentGranularity() == null
                                    ? ""
                                    : " (" + state.currentGranularity().wireName() + ")"));
        }
        if (state.pendingQuestion() != null) {
            line(text, "You asked, and the learner's message may answer: \"" + state.pendingQuestion() + "\"");
        }
        List<DecisionPoint> decisions = memory.decisions()
                .subList(0, Math.min(DECISIONS_SHOWN, memory.decisions().size()));
        for (DecisionPoint d : decisions) {
            line(
                    text,
                    "Decision " + d.decision() + (d.data().isEmpty() ? "" : " " + d.data()) + " on "
                            + d.createdAt().toString().substring(0, 10));
        }
        for (ContentJob job : content.subList(0, Math.min(CONTENT_SHOWN, content.size()))) {
            String status = switch (job.status()) {
                case QUEUED, RUNNING -> "being prepared";
                case COMPLETED -> "ready";
                case FAILED -> "could not be prepared";
            };
            line(text, "Materials on \"" + job.topic() + "\": " + status);
        }
        if (text.isEmpty()) return "";
        return "What you remember about this learner from earlier (use it; do not recite it):\n" + text;
    }

    private static void line(StringBuilder text, String line) {
        text.append("- ").append(line).append('\n');
    }
}
