package dev.baton.testkit.store;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.ToolCallRecord;
import java.util.Comparator;
import java.util.List;

/** The turn persistence contract on the in-memory store. */
class InMemoryTurnPersistenceTest extends TurnPersistenceContract {
    private final InMemoryConversationStore store = new InMemoryConversationStore();

    @Override
    protected ConversationStore store() {
        return store;
    }

    @Override
    protected List<ToolCallRecord> toolCallRows(String sessionId) {
        return store.toolCallRows(sessionId).stream()
                .sorted(Comparator.comparing(ToolCallRecord::startedAt).thenComparing(ToolCallRecord::id))
                .toList();
    }
}
