package dev.baton.testkit.store;

import dev.baton.runtime.conversation.HistoryKeys;

/** The history keys contract on the in-memory keys. */
class InMemoryHistoryKeysTest extends HistoryKeysContract {
    private final HistoryKeys keys = HistoryKeys.inMemory();

    @Override
    protected HistoryKeys keys() {
        return keys;
    }
}
