package dev.baton.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.InMemoryIdempotencyStore;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.Yaml;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a {@link Baton} starts in the background it stops on close, and building refuses a missing port. */
class BatonLifecycleTest {

    /** Sessions that start and never end: enough for a runtime whose turns these tests never run. */
    private static BatonBuilder builder() {
        InMemoryConversationStore store = new InMemoryConversationStore();
        return Baton.builder()
                .conversationStore(store)
                .sessionStore(new OpenSessions(session -> {}))
                .idempotencyStore(new InMemoryIdempotencyStore())
                .models(reference -> {
                    throw new IllegalArgumentException("no models in this test");
                })
                .tokenCounter(String::length)
                .agents(AgentRegistry.of(List.of(AgentDefinition.of("a", "You help.", "simulator:x", List.of()))))
                .configure(Yaml.parse("lifecycle: {sweepInterval: 1h}\nidempotency: {interval: 1h}"));
    }

    private static long threadsNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name) && t.isAlive())
                .count();
    }

    @Test
    void the_background_jobs_started_run_until_the_runtime_is_closed() throws InterruptedException {
        long sweepsBefore = threadsNamed("session-sweep");
        Baton baton = builder().build();
        baton.startBackgroundJobs();
        baton.startBackgroundJobs(); // once only
        assertThat(threadsNamed("session-sweep")).isEqualTo(sweepsBefore + 1);
        Thread sweep = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("session-sweep"))
                .findFirst()
                .orElseThrow();

        baton.close();

        sweep.join(Duration.ofSeconds(30));
        assertThat(sweep.isAlive()).isFalse();
    }

    @Test
    void a_closed_runtime_starts_no_jobs() {
        long sweepsBefore = threadsNamed("session-sweep");
        Baton baton = builder().build();
        baton.close();

        baton.startBackgroundJobs();

        assertThat(threadsNamed("session-sweep")).isEqualTo(sweepsBefore);
    }

    @Test
    void building_without_a_required_port_names_it() {
        assertThatThrownBy(() -> Baton.builder().build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("conversationStore");
    }
}
