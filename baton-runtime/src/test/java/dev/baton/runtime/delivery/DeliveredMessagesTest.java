package dev.baton.runtime.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.SessionState;
import dev.baton.core.turn.Cancellation;
import dev.baton.runtime.turn.RunningTurns;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class DeliveredMessagesTest {
    private static final Instant NOW = Instant.parse("2026-11-29T01:00:00Z");

    private final InMemoryConversationStore store = new InMemoryConversationStore();
    private final DeliveredMessages deliveries = new DeliveredMessages(store, Clock.fixed(NOW, ZoneOffset.UTC));

    private Session session(String id, String tenant, String user) {
        Session s = new Session(id, tenant, user, "learning", null, SessionState.ACTIVE, NOW, null, NOW, 0, 0);
        store.createSession(s);
        return s;
    }

    private static Delivery delivery(String tenant, String user, String session) {
        return new Delivery(tenant, user, session, "Your material is ready.", "learning.content");
    }

    @Test
    void a_delivery_is_stored_as_the_sessions_next_assistant_message_and_announced() {
        session("s1", "t1", "ana");
        List<DeliveredMessage> heard = new CopyOnWriteArrayList<>();
        deliveries.subscribe(heard::add);

        Optional<DeliveredMessage> delivered = deliveries.deliver(delivery("t1", "ana", "s1"));

        assertThat(delivered).isPresent();
        var stored = store.recentMessages("ana", "s1", 10);
        assertThat(stored).hasSize(1);
        assertThat(stored.getFirst().role()).isEqualTo(MessageRole.ASSISTANT);
        assertThat(stored.getFirst().content()).isEqualTo("Your material is ready.");
        assertThat(stored.getFirst().id()).isEqualTo(delivered.get().message().id());
        assertThat(heard).containsExactly(delivered.get());
        assertThat(heard.getFirst().agentId()).isEqualTo("learning");
        assertThat(store.findSession("ana", "s1").orElseThrow().messageCount()).isEqualTo(1);
    }

    @Test
    void another_users_or_another_tenants_session_gets_nothing_and_nobody_hears_of_it() {
        session("s1", "t1", "ana");
        List<DeliveredMessage> heard = new CopyOnWriteArrayList<>();
        deliveries.subscribe(heard::add);

        assertThat(deliveries.deliver(delivery("t1", "bob", "s1"))).isEmpty();
        assertThat(deliveries.deliver(delivery("t2", "ana", "s1"))).isEmpty();
        assertThat(deliveries.deliver(delivery("t1", "ana", "gone"))).isEmpty();

        assertThat(store.recentMessages("ana", "s1", 10)).isEmpty();
        assertThat(heard).isEmpty();
    }

    @Test
    void a_failing_subscriber_neither_stops_the_delivery_nor_the_others_and_a_closed_one_hears_nothing() {
        session("s1", "t1", "ana");
        List<DeliveredMessage> heard = new CopyOnWriteArrayList<>();
        deliveries.subscribe(d -> {
            throw new IllegalStateException("broken listener");
        });
        deliveries.subscribe(heard::add);
        List<DeliveredMessage> closed = new CopyOnWriteArrayList<>();
        deliveries.subscribe(closed::add).close();

        assertThat(deliveries.deliver(delivery("t1", "ana", "s1"))).isPresent();

        assertThat(heard).hasSize(1);
        assertThat(closed).isEmpty();
    }

    @Test
    void a_delivery_waits_for_the_sessions_running_turn_and_holds_the_session_while_it_writes() {
        session("s1", "t1", "ana");
        RunningTurns turns = new RunningTurns();
        deliveries.bind(turns);
        Cancellation turn = turns.begin("s1");

        CompletableFuture<Optional<DeliveredMessage>> delivering =
                CompletableFuture.supplyAsync(() -> deliveries.deliver(delivery("t1", "ana", "s1")));
        // the delivery keeps trying to take the session while the turn holds it
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> !delivering.isDone());
        assertThat(store.recentMessages("ana", "s1", 10)).isEmpty();

        turns.end("s1", turn);

        assertThat(delivering.join()).isPresent();
        assertThat(store.recentMessages("ana", "s1", 10)).hasSize(1);
        assertThat(turns.count()).as("the session is free again").isZero();
    }

    @Test
    void overlong_material_is_cut_with_a_note() {
        session("s1", "t1", "ana");
        String material = "x".repeat(Delivery.MAX_CONTENT + 10);

        var delivered = deliveries.deliver(new Delivery("t1", "ana", "s1", material, "learning.content"));

        String content = delivered.orElseThrow().message().content();
        assertThat(content).startsWith("x".repeat(Delivery.MAX_CONTENT)).endsWith("too long for one message)_");
        assertThat(content.length()).isLessThan(material.length() + 100);
    }
}
