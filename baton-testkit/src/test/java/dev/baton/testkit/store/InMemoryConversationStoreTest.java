package dev.baton.testkit.store;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.IdempotencyStore;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.InMemoryIdempotencyStore;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.UsageRecord;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;

/** The store contract on the in-memory store, a fresh one per test. */
class InMemoryConversationStoreTest extends ConversationStoreContract {
    private InMemoryConversationStore store;
    private InMemoryIdempotencyStore idempotency;

    @BeforeEach
    void freshStore() {
        store = new InMemoryConversationStore();
        idempotency = new InMemoryIdempotencyStore();
    }

    @Override
    protected ConversationStore store() {
        return store;
    }

    @Override
    protected IdempotencyStore idempotency() {
        return idempotency;
    }

    @Override
    protected List<ToolCallRecord> toolCallRows(String sessionId) {
        return store.toolCallRows(sessionId).stream()
                .sorted(Comparator.comparing(ToolCallRecord::startedAt).thenComparing(ToolCallRecord::id))
                .toList();
    }

    @Override
    protected List<BigDecimal> usageCosts(String sessionId) {
        return store.usageRows(sessionId).stream().map(UsageRecord::costUsd).toList();
    }
}
