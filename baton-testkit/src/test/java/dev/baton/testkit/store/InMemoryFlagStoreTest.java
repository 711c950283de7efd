package dev.baton.testkit.store;

import dev.baton.runtime.flag.FlagStore;

/** The flag store contract on {@code FlagStore.inMemory()}, one store for the class. */
class InMemoryFlagStoreTest extends FlagStoreContract {
    private final FlagStore flags = FlagStore.inMemory();

    @Override
    protected FlagStore flags() {
        return flags;
    }
}
