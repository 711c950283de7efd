package dev.baton.testkit.store;

import dev.baton.core.audit.AuditStore;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.InMemoryConversationStore;

/** The audit store contract on {@code InMemoryConversationStore.auditStore()}, one store for the class. */
class InMemoryAuditStoreTest extends AuditStoreContract {
    private final InMemoryConversationStore store = new InMemoryConversationStore();
    private final AuditStore audit = store.auditStore();

    @Override
    protected ConversationStore conversations() {
        return store;
    }

    @Override
    protected AuditStore audit() {
        return audit;
    }
}
