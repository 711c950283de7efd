package dev.baton.testkit.store;

import static dev.baton.testkit.store.ScriptedModel.call;
import static dev.baton.testkit.store.ScriptedModel.failing;
import static dev.baton.testkit.store.ScriptedModel.text;
import static dev.baton.testkit.store.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.ToolCallRecord;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.id.Ids;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.turn.Cancellation;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import dev.baton.core.turn.TurnRunner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the turn loop leaves in a {@link ConversationStore} while and after it runs: a finished tool call is in
 * {@code tool_calls} before the turn ends (so a crash cannot lose it from the audit trail), and the end of the turn
 * links it to the answer instead of writing it twice. Run against every store the way {@link
 * ConversationStoreContract} is.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class TurnPersistenceContract {
    private static final Clock CLOCK = Clock.systemUTC();
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** Counted down by the blocking tool once it runs. */
    private CountDownLatch waiting;
    /** Lets the blocking tool finish. */
    private CountDownLatch release;

    /** The conversation store under test. */
    protected abstract ConversationStore store();

    /** Every tool call row of the session, linked to a message or not, oldest first. */
    protected abstract List<ToolCallRecord> toolCallRows(String sessionId);

    @BeforeEach
    void newLatches() {
        waiting = new CountDownLatch(1);
        release = new CountDownLatch(1);
    }

    @AfterEach
    void releaseTheTool() {
        release.countDown();
    }

    private static Tool tool(String name, Supplier<JsonNode> body) {
        ToolDefinition definition = new ToolDefinition(
                name, "Test tool " + name, JSON.objectNode().put("type", "object"), Set.of(), Duration.ofSeconds(20));
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return definition;
            }

            @Override
            public JsonNode execute(JsonNode arguments, ToolContext context) {
                return body.get();
            }
        };
    }

    /** list_tasks answers at once; wait_for_it blocks until the test releases it. */
    private ToolSource tools() {
        CountDownLatch waiting = this.waiting;
        CountDownLatch release = this.release;
        Tool list = tool("list_tasks", () -> JSON.objectNode().set("tasks", JSON.arrayNode()));
        Tool blocking = tool("wait_for_it", () -> {
            waiting.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return JSON.objectNode().put("waited", true);
        });
        return new ToolSource() {
            @Override
            public String name() {
                return "contract";
            }

            @Override
            public List<Tool> tools() {
                return List.of(list, blocking);
            }
        };
    }

    private Session newSession() {
        String user = ConversationFixtures.newUser();
        Session session = Session.start(Ids.newId(), "tenant-1", user, "helper", null, Instant.now());
        store().createSession(session);
        return session;
    }

    private CompletableFuture<TurnOutcome> startTurn(Session session, ScriptedModel model) {
        TurnRunner runner = new TurnRunner(
                store(),
                model,
                new ToolCatalog(List.of(tools())),
                text -> text.length() / 4 + 1,
                CostCalculator.FREE,
                CLOCK,
                ModulePipeline.none(CLOCK));
        AgentDefinition agent = AgentDefinition.of(
                "helper", "You help with tasks.", "scripted:default", List.of("list_tasks", "wait_for_it"));
        Principal principal = new Principal(
                session.userId(), session.tenantId(), "Alice", "alice@example.com", Set.of(), Set.of(), List.of());
        TurnRequest request =
                new TurnRequest(Ids.newId(), principal, session, agent, "what are my tasks?", new Cancellation());
        return CompletableFuture.supplyAsync(
                () -> runner.run(request, event -> {}),
                command -> Thread.ofVirtual().start(command));
    }

    @Test
    void a_finished_tool_call_is_in_tool_calls_while_the_turn_still_runs() throws Exception {
        Session session = newSession();
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "list_tasks", "{}")),
                toolCalls(call("c2", "wait_for_it", "{}")),
                text("You have no tasks."));

        CompletableFuture<TurnOutcome> turn = startTurn(session, model);
        assertThat(waiting.await(20, TimeUnit.SECONDS)).isTrue();

        assertThat(turn).isNotDone();
        assertThat(toolCallRows(session.id())).singleElement().satisfies(row -> {
            assertThat(row.toolName()).isEqualTo("list_tasks");
            assertThat(row.state()).isEqualTo(ToolCallState.SUCCEEDED);
            assertThat(row.toolResult()).isEqualTo("{\"tasks\":[]}");
            assertThat(row.messageId()).as("no answer yet").isNull();
        });

        release.countDown();
        TurnOutcome outcome = turn.get(20, TimeUnit.SECONDS);

        assertThat(outcome.succeeded()).isTrue();
        String answerId = outcome.assistantMessage().id();
        assertThat(toolCallRows(session.id()))
                .as("each call once, now linked to the answer")
                .extracting(ToolCallRecord::toolName, ToolCallRecord::messageId)
                .containsExactly(tuple("list_tasks", answerId), tuple("wait_for_it", answerId));
        assertThat(store().toolCallsOf(session.userId(), session.id(), List.of(answerId)))
                .extracting(ToolCallRecord::id)
                .containsExactlyElementsOf(
                        outcome.toolCalls().stream().map(ToolCallRecord::id).toList());
        assertThat(store().findSession(session.userId(), session.id())
                        .orElseThrow()
                        .toolCallCount())
                .isEqualTo(2);
    }

    @Test
    void a_turn_whose_model_fails_after_a_tool_step_keeps_its_call_linked_to_the_partial_answer() throws Exception {
        Session session = newSession();
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("c1", "list_tasks", "{}"), call("c2", "list_tasks", "{\"again\":true}")),
                failing("You have", ModelFailure.Kind.UNAVAILABLE));

        TurnOutcome outcome = startTurn(session, model).get(20, TimeUnit.SECONDS);

        assertThat(outcome.succeeded()).isFalse();
        assertThat(outcome.assistantMessage().status()).isEqualTo(MessageStatus.INCOMPLETE);
        assertThat(toolCallRows(session.id()))
                .hasSize(2)
                .allSatisfy(row -> assertThat(row.messageId())
                        .isEqualTo(outcome.assistantMessage().id()));
    }
}
