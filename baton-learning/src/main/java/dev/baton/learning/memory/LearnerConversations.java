package dev.baton.learning.memory;

import dev.baton.learning.Learner;

/**
 * The learner's conversations with the learning agent, as far as the memory needs them: a reset deletes them. The
 * conversations belong to the runtime's store; whoever wires the module says how they are found and deleted.
 */
@FunctionalInterface
public interface LearnerConversations {
    /** Keeps every conversation: for embedders who hold no conversations of the learning agent. */
    LearnerConversations NONE = learner -> 0;

    /** @return how many conversations were deleted */
    int deleteAll(Learner learner);
}
