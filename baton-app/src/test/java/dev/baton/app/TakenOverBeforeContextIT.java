package dev.baton.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.AttachedResource;
import dev.baton.core.auth.Principal;
import dev.baton.core.context.ResourceContent;
import dev.baton.core.context.ResourceReader;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.Session;
import dev.baton.core.id.Ids;
import dev.baton.core.turn.TurnEvent;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.runtime.Baton;
import dev.baton.runtime.admission.IdempotencyKey;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.Yaml;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.session.Sessions;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcStores;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A turn whose instance dies after its user message is stored and before its context is built (here: while its
 * agent's MCP resource is read for the system prompt) is leased with its message, so it is taken over and answered
 * once, and a retry with the request's idempotency key waits for it and replays its answer. Two runtimes on one SQLite
 * database and the LLM simulator; the first "dies" reading the resource: it never renews its lease, and the second,
 * started under the same instance id, takes its previous boot's turn over at once.
 */
class TakenOverBeforeContextIT {
    private static final AgentDefinition AGENT = AgentDefinition.of(
                    "helper", "You help.", "simulator:default", List.of())
            .withResources(List.of(new AttachedResource("docs", "file:///handbook.md")));
    private static final Principal ALICE = Principal.of("acme", "alice", Set.of(Sessions.READ, Sessions.WRITE));
    private static final String DURABLE = """
            durableTurns:
              enabled: true
              instanceId: api-1
              lease: 3s
              heartbeat: 200ms
            """;

    @TempDir
    Path dir;

    private LlmSimulator sim;
    private Database db;
    private final List<Baton> opened = new CopyOnWriteArrayList<>();
    private final CountDownLatch readingResource = new CountDownLatch(1);
    private final CountDownLatch releaseReading = new CountDownLatch(1);
    /** Each request on a thread of its own (the common pool may have one thread, which the dying request holds). */
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @BeforeEach
    void start() {
        sim = LlmSimulator.start(
                SimulatorScript.builder().fallback("Here you are.").build());
        db = Database.open("jdbc:sqlite:" + dir.resolve("baton.db"));
    }

    @AfterEach
    void stop() {
        releaseReading.countDown();
        threads.shutdownNow();
        opened.forEach(Baton::close);
        db.close();
        sim.close();
    }

    @Test
    void a_turn_killed_while_its_context_is_built_is_taken_over_and_a_same_key_retry_replays_its_answer()
            throws Exception {
        Baton dying = baton(blockingReader());
        Session session = dying.sessions().start(ALICE, "helper", null);
        IdempotencyKey key = new IdempotencyKey("k-1", "{\"content\":\"hello\"}");
        CompletableFuture<SendResult> dead = CompletableFuture.supplyAsync(() -> send(dying, session, key), threads);
        assertThat(readingResource.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(count("SELECT count(*) FROM running_turns"))
                .as("leased with its user message, before its context")
                .isEqualTo(1);
        assertThat(messages(dying, session)).extracting(Message::role).containsExactly(MessageRole.USER);

        Baton taker = baton(readerOf("the new handbook"));
        // the client's retry reaches the restarted instance before its sweep: it waits for the turn, no 409
        CompletableFuture<SendResult> retry = CompletableFuture.supplyAsync(() -> send(taker, session, key), threads);
        taker.startBackgroundJobs();

        SendResult replayed = retry.get(30, TimeUnit.SECONDS);
        assertThat(replayed).isInstanceOf(SendResult.Replayed.class);
        assertThat(((SendResult.Replayed) replayed).outcome().succeeded()).isTrue();
        assertThat(messages(taker, session))
                .extracting(Message::role, Message::content)
                .containsExactly(tuple(MessageRole.USER, "hello"), tuple(MessageRole.ASSISTANT, "Here you are."));
        assertThat(sim.requestCount())
                .as("the model is asked once, by the taker")
                .isEqualTo(1);
        assertThat(sim.requests().getFirst().rawBody())
                .as("its context built on the taker")
                .contains("the new handbook");
        assertThat(count("SELECT count(*) FROM running_turns")).isZero();

        // the dead instance's thread wakes up: its context checkpoint is fenced out, it writes nothing more
        releaseReading.countDown();
        SendResult deadResult = dead.get(30, TimeUnit.SECONDS);
        assertThat(((SendResult.Ran) deadResult).outcome().terminal())
                .isInstanceOfSatisfying(
                        TurnEvent.Failed.class, f -> assertThat(f.code()).isEqualTo("turn_taken_over"));
        assertThat(messages(taker, session)).hasSize(2);
        assertThat(sim.requestCount()).isEqualTo(1);
    }

    private ResourceReader blockingReader() {
        return (caller, resources) -> {
            readingResource.countDown();
            try {
                releaseReading.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return readerOf("the old handbook").read(caller, resources);
        };
    }

    private static ResourceReader readerOf(String text) {
        return (caller, resources) -> resources.stream()
                .map(r -> (ResourceContent)
                        new ResourceContent.Text(r.server(), r.uri(), "text/markdown", text, text.length()))
                .toList();
    }

    private Baton baton(ResourceReader resources) {
        Baton baton = JdbcStores.of(db)
                .applyTo(Baton.builder())
                .configure(Yaml.parse(DURABLE))
                .models(ConfiguredModelResolver.builder()
                        .simulator(sim.baseUrl(), null)
                        .build())
                .tokenCounter(String::length)
                .agents(AgentRegistry.of(List.of(AGENT)))
                .resources(resources)
                .build();
        opened.add(baton);
        return baton;
    }

    private static SendResult send(Baton baton, Session session, IdempotencyKey key) {
        return baton.conversations().send(ALICE, session.id(), "hello", new SendOptions(Ids.newId(), key), e -> {});
    }

    private static List<Message> messages(Baton baton, Session session) {
        return baton.sessions().messages(ALICE, session.id(), null, 50).messages();
    }

    private int count(String sql) {
        return RowCounts.count(db, sql);
    }
}
