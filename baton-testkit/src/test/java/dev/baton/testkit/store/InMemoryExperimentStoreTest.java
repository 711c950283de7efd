package dev.baton.testkit.store;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.runtime.experiment.ExperimentStore;

/** The experiment store contract on {@code ExperimentStore.inMemory}, over one conversation store for the class. */
class InMemoryExperimentStoreTest extends ExperimentStoreContract {
    private final InMemoryConversationStore conversations = new InMemoryConversationStore();
    private final ExperimentStore store = ExperimentStore.inMemory(conversations);

    @Override
    protected ExperimentStore store() {
        return store;
    }

    @Override
    protected ConversationStore conversations() {
        return conversations;
    }
}
