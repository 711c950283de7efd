package dev.baton.learning.memory;

import dev.baton.learning.Learner;
import java.util.List;

/**
 * The learner's conversations with the learning agent, as far as the memory needs them: a memory read shows the
 * latest messages of the running one, a reset deletes them all. The conversations belong to the runtime's store;
 * whoever wires the module says how they are found, read and deleted.
 */
@FunctionalInterface
public interface LearnerConversations {
    /** Keeps every conversation: for embedders who hold no conversations of the learning agent. */
    LearnerConversations NONE = learner -> 0;

    /** @return how many conversations were deleted */
    int deleteAll(Learner learner);

    /**
     * The newest {@code limit} messages of the learner's running conversation with the learning agent (the newest
     * active one), oldest first; empty when there is none. A bounded read: it does not grow with the conversation.
     * Holding no conversations, the default has none.
     */
    default List<LearnerMessage> recentMessages(Learner learner, int limit) {
        return List.of();
    }
}
