package dev.baton.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolSource;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.runtime.Baton;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.admission.BudgetSettings;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.Yaml;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A turn taken over after its instance died passes the same admission as any turn: its cost ceiling is reserved
 * against its user's budgets while it goes on (and released when it ends), and a user over budget at takeover gets
 * the turn ended with {@code budget_exceeded}, its lease closed, the model not called again. Two runtimes on one
 * SQLite database and the LLM simulator; the first "dies" with a tool call running: it never renews its lease, and the
 * second, started under the same instance id, takes its previous boot's turn over at once.
 */
class TakenOverTurnAdmissionIT {
    private static final AgentDefinition AGENT =
            AgentDefinition.of("helper", "You help.", "simulator:default", List.of("charge", "lookup"));
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
    private final List<String> keys = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstCallRunning = new CountDownLatch(1);
    private final CountDownLatch releaseFirst = new CountDownLatch(1);
    private final CountDownLatch secondCallRunning = new CountDownLatch(1);
    private final CountDownLatch releaseSecond = new CountDownLatch(1);

    @BeforeEach
    void start() {
        sim = LlmSimulator.start(SimulatorScript.builder()
                .whenUserSays("charge me", Reply.toolCall("charge", "{}"))
                .whenUserSays("look it up", Reply.toolCall("lookup", "{}"))
                .whenToolResult("charge", Reply.text("Charged."))
                .whenToolResult("lookup", Reply.text("Found it."))
                .fallback("Fine.")
                .build());
        db = Database.open("jdbc:sqlite:" + dir.resolve("baton.db"));
    }

    @AfterEach
    void stop() {
        releaseFirst.countDown();
        releaseSecond.countDown();
        opened.forEach(Baton::close);
        db.close();
        sim.close();
    }

    @Test
    void a_user_over_budget_at_takeover_gets_the_turn_ended_with_budget_exceeded_and_its_lease_closed()
            throws Exception {
        Baton dying = baton("");
        Session session = dying.sessions().start(ALICE, "helper", null);
        CompletableFuture<SendResult> dead = sendAsync(dying, session, "charge me");
        assertThat(firstCallRunning.await(30, TimeUnit.SECONDS)).isTrue();
        long modelCalls = sim.requestCount();

        // restarted with a budget the user has used up
        Baton taker = baton("budgets:\n  perUser: {dailyUsd: 0}\n");
        taker.startBackgroundJobs();

        await().atMost(Duration.ofSeconds(30)).until(() -> count("SELECT count(*) FROM running_turns") == 0);
        List<Message> messages = messages(taker, session);
        assertThat(messages)
                .extracting(Message::role, Message::status)
                .containsExactly(
                        tuple(MessageRole.USER, MessageStatus.COMPLETE),
                        tuple(MessageRole.ASSISTANT, MessageStatus.INCOMPLETE));
        assertThat(sim.requestCount())
                .as("the model is not called for a refused turn")
                .isEqualTo(modelCalls);
        assertThat(keys).as("the charge is not run again").hasSize(1);
        assertThat(count("SELECT count(*) FROM tool_calls WHERE tool_name = 'charge' AND state = 'failed'"
                        + " AND error_message LIKE 'tool_outcome_unknown%'"))
                .as("the running call is recorded with its outcome unknown")
                .isEqualTo(1);
        assertThat(events(taker, session))
                .as("its followers read the refusal as the turn's end")
                .last()
                .satisfies(e -> assertThat(e.data()).contains("budget_exceeded"));

        // the dead instance's thread wakes up: it cannot write any more
        releaseFirst.countDown();
        dead.get(30, TimeUnit.SECONDS);
        assertThat(messages(taker, session)).hasSize(2);
    }

    @Test
    void a_turn_taken_over_holds_its_cost_ceiling_against_the_users_budget_until_it_ends() throws Exception {
        Baton dying = baton("");
        Session session = dying.sessions().start(ALICE, "helper", null);
        sendAsync(dying, session, "look it up");
        assertThat(firstCallRunning.await(30, TimeUnit.SECONDS)).isTrue();

        // one turn's ceiling fits the user's budget, two do not
        Baton taker = baton("budgets:\n  perUser: {dailyUsd: 1}\n  maxCostPerTurnUsd: 1\n");
        Session other = taker.sessions().start(ALICE, "helper", null);
        taker.startBackgroundJobs();
        // the idempotent lookup runs again on the taker, and waits there
        assertThat(secondCallRunning.await(30, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> send(taker, other, "hello"))
                .isInstanceOfSatisfying(
                        RefusalException.class,
                        e -> assertThat(e.refusal()).isInstanceOf(Refusal.BudgetExceeded.class));

        releaseSecond.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> count("SELECT count(*) FROM running_turns") == 0);
        assertThat(messages(taker, session))
                .extracting(Message::role, Message::content)
                .containsExactly(tuple(MessageRole.USER, "look it up"), tuple(MessageRole.ASSISTANT, "Found it."));
        assertThat(keys).as("run again with its first attempt's key").hasSize(2).containsOnly(keys.getFirst());
        // released with the turn's end: the next turn is admitted
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(((SendResult.Ran) send(taker, other, "hello"))
                                .outcome()
                                .succeeded())
                        .isTrue());
    }

    private Baton baton(String moreYaml) {
        JsonNode root = Yaml.parse(DURABLE + moreYaml);
        Baton baton = JdbcStores.of(db)
                .applyTo(Baton.builder())
                .configure(root)
                .budgets(BudgetSettings.parse(root.path(BudgetSettings.SECTION)))
                .models(ConfiguredModelResolver.builder()
                        .simulator(sim.baseUrl(), null)
                        .build())
                .tokenCounter(String::length)
                .agents(AgentRegistry.of(List.of(AGENT)))
                .tools(tools())
                .build();
        opened.add(baton);
        return baton;
    }

    /** charge (not idempotent) and lookup (idempotent): the first call of each waits, lookup's second call too. */
    private ToolSource tools() {
        Tool charge = tool("charge", false, releaseFirst, null);
        Tool lookup = tool("lookup", true, releaseFirst, releaseSecond);
        return new ToolSource() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public List<Tool> tools() {
                return List.of(charge, lookup);
            }
        };
    }

    private Tool tool(String name, boolean idempotent, CountDownLatch first, CountDownLatch second) {
        ToolDefinition definition = new ToolDefinition(
                name,
                "Tool " + name,
                JsonNodeFactory.instance.objectNode().put("type", "object"),
                Set.of(),
                Duration.ofSeconds(60),
                false,
                Set.of(),
                idempotent);
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return definition;
            }

            @Override
            public JsonNode execute(JsonNode arguments, ToolContext context) {
                keys.add(context.idempotencyKey());
                try {
                    if (keys.size() == 1) {
                        firstCallRunning.countDown();
                        first.await();
                    } else if (second != null) {
                        secondCallRunning.countDown();
                        second.await();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
                return JsonNodeFactory.instance.objectNode().put("ok", true);
            }
        };
    }

    private static CompletableFuture<SendResult> sendAsync(Baton baton, Session session, String text) {
        return CompletableFuture.supplyAsync(() -> send(baton, session, text));
    }

    private static SendResult send(Baton baton, Session session, String text) {
        return baton.conversations().send(ALICE, session.id(), text, SendOptions.withNewRequestId(), e -> {});
    }

    private static List<Message> messages(Baton baton, Session session) {
        return baton.sessions().messages(ALICE, session.id(), null, 50).messages();
    }

    private static List<TurnEventLog.LoggedEvent> events(Baton baton, Session session) {
        String turnId = baton.turnEvents().lastTurn(session.id()).orElseThrow();
        try (TurnEventLog.Reader reader = baton.turnEvents().reader(turnId)) {
            return reader.read(0, Duration.ofSeconds(5));
        }
    }

    private int count(String sql) {
        return RowCounts.count(db, sql);
    }
}
