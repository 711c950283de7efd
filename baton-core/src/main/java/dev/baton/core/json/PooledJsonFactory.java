package dev.baton.core.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;

/**
 * JSON factories whose buffers come from one pool shared by every thread, for the mappers a turn uses.
 *
 * <p>Jackson 2 recycles its read and write buffers per thread by default. Turns run on virtual threads, a few per
 * turn, each living as long as its turn: every one that touched JSON kept its own buffers (kilobytes of {@code byte[]}
 * and {@code char[]}) for as long as its turn stayed open, so a server holding thousands of open SSE streams held
 * thousands of idle buffer sets. From a shared pool a thread takes buffers for one read or write and gives them back.
 */
public final class PooledJsonFactory {
    private PooledJsonFactory() {}

    /** A new factory on the shared pool; build a mapper on it with {@code JsonMapper.builder(factory)}. */
    public static JsonFactory create() {
        return JsonFactory.builder()
                .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
                .build();
    }
}
