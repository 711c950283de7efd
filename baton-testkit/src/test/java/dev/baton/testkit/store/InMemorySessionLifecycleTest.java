package dev.baton.testkit.store;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.runtime.session.SessionLifecycleStore;

/** The session lifecycle contract on {@code SessionLifecycleStore.inMemory}, one store for the class. */
class InMemorySessionLifecycleTest extends SessionLifecycleStoreContract {
    private final InMemoryConversationStore store = new InMemoryConversationStore();
    private final SessionLifecycleStore lifecycle = SessionLifecycleStore.inMemory(store);

    @Override
    protected ConversationStore conversations() {
        return store;
    }

    @Override
    protected SessionLifecycleStore lifecycle() {
        return lifecycle;
    }

    /** Memory is one process's: the other "instance" is the same store, used from another thread. */
    @Override
    protected SessionLifecycleStore anotherInstance() {
        return lifecycle;
    }
}
