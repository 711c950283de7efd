package dev.baton.testkit.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.tool.pin.ToolPin;
import dev.baton.core.tool.pin.ToolPins;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link ToolPins} must do, for every instance sharing it: the first sighting of a tool pins it, a
 * different one is recorded as a change with its first time, only the change recorded now can be accepted, a tool
 * that changes back matches its pin again, and two instances seeing a new tool at once agree on one pin. Run by
 * baton-store-jdbc against SQLite and PostgreSQL and by baton-mcp against {@code InMemoryToolPins}.
 *
 * <p>Subclasses give the pins under test, which may be shared by all tests of the class (each test has its own
 * server name).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ToolPinsContract {
    private final Instant t0 = Instant.parse("2026-01-01T00:00:00.123456Z");
    private String server;
    private int servers;

    /** The pins under test. */
    protected abstract ToolPins pins();

    @BeforeEach
    void freshServer() {
        server = "server-" + servers++;
    }

    @Test
    void the_first_sighting_pins_the_tool_and_a_matching_one_changes_nothing() {
        ToolPin first = pins().observe(server, "read", "sha256:a", t0);
        ToolPin again = pins().observe(server, "read", "sha256:a", t0.plusSeconds(60));

        assertThat(first).isEqualTo(new ToolPin(server, "read", "sha256:a", t0, null, null));
        assertThat(again).isEqualTo(first);
    }

    @Test
    void a_different_sighting_is_recorded_as_a_change_with_its_first_time() {
        pins().observe(server, "read", "sha256:a", t0);
        pins().observe(server, "read", "sha256:b", t0.plusSeconds(1));
        ToolPin seenAgain = pins().observe(server, "read", "sha256:b", t0.plusSeconds(2));

        assertThat(seenAgain).isEqualTo(new ToolPin(server, "read", "sha256:a", t0, "sha256:b", t0.plusSeconds(1)));
        assertThat(pins().all()).contains(seenAgain);
    }

    @Test
    void only_the_change_recorded_now_can_be_accepted_and_it_becomes_the_pin() {
        pins().observe(server, "read", "sha256:a", t0);
        pins().observe(server, "read", "sha256:b", t0.plusSeconds(1));

        assertThat(pins().accept(server, "read", "sha256:c", t0.plusSeconds(2))).isFalse();
        assertThat(pins().accept(server, "nope", "sha256:b", t0.plusSeconds(2))).isFalse();
        assertThat(pins().accept(server, "read", "sha256:b", t0.plusSeconds(3))).isTrue();

        ToolPin after = pins().observe(server, "read", "sha256:b", t0.plusSeconds(4));
        assertThat(after).isEqualTo(new ToolPin(server, "read", "sha256:b", t0.plusSeconds(3), null, null));
    }

    @Test
    void a_tool_that_changes_back_matches_its_pin_again() {
        pins().observe(server, "read", "sha256:a", t0);
        pins().observe(server, "read", "sha256:b", t0.plusSeconds(1));

        assertThat(pins().observe(server, "read", "sha256:a", t0.plusSeconds(2)).changed())
                .isFalse();
        assertThat(pins().accept(server, "read", "sha256:b", t0.plusSeconds(3))).isFalse();
    }

    @Test
    void two_instances_seeing_a_new_tool_at_once_agree_on_one_pin() throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<CompletableFuture<ToolPin>> seen = List.of("sha256:x", "sha256:y").stream()
                    .map(hash -> CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    go.await();
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                                return pins().observe(server, "new", hash, t0);
                            },
                            threads))
                    .toList();
            go.countDown();
            for (CompletableFuture<ToolPin> f : seen) f.get();
        }

        ToolPin stored = pins().all().stream()
                .filter(p -> p.server().equals(server))
                .findFirst()
                .orElseThrow();
        assertThat(List.of("sha256:x", "sha256:y")).contains(stored.pinnedHash());
        // whichever came second is a change of the first one's pin, never a second pin
        assertThat(stored.changedHash()).isIn(null, "sha256:x", "sha256:y").isNotEqualTo(stored.pinnedHash());
        assertThat(pins().all().stream().filter(p -> p.server().equals(server))).hasSize(1);
    }
}
