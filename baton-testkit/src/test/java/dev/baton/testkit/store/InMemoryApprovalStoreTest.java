package dev.baton.testkit.store;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.runtime.approval.ApprovalStore;

/** The approval store contract on {@code ApprovalStore.inMemory()}, one store for the class. */
class InMemoryApprovalStoreTest extends ApprovalStoreContract {
    private final ConversationStore conversations = new InMemoryConversationStore();
    private final ApprovalStore approvals = ApprovalStore.inMemory();

    @Override
    protected ConversationStore conversations() {
        return conversations;
    }

    @Override
    protected ApprovalStore approvals() {
        return approvals;
    }
}
