package dev.baton.core.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PooledJsonFactoryTest {

    @Test
    void its_factories_share_one_pool_across_threads_not_one_per_thread() {
        assertThat(PooledJsonFactory.create()._getRecyclerPool())
                .isSameAs(JsonRecyclerPools.sharedConcurrentDequePool())
                .isNotSameAs(JsonRecyclerPools.threadLocalPool());
    }

    @Test
    void a_mapper_on_it_writes_and_reads_on_short_lived_threads() throws Exception {
        JsonMapper mapper = JsonMapper.builder(PooledJsonFactory.create()).build();
        AtomicReference<String> written = new AtomicReference<>();
        Thread.ofVirtual()
                .start(() -> {
                    try {
                        written.set(mapper.writeValueAsString(Map.of("text", "ünïcode ".repeat(2_000))));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                })
                .join();
        assertThat(mapper.readTree(written.get()).path("text").asText()).isEqualTo("ünïcode ".repeat(2_000));
    }
}
