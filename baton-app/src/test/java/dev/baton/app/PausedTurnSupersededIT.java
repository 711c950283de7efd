package dev.baton.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.HookResult;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.ModuleDescriptor;
import dev.baton.core.hook.ModuleSource;
import dev.baton.core.turn.TurnEvent;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.runtime.Baton;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.approval.ApprovalStatus;
import dev.baton.runtime.approval.ToolApproval;
import dev.baton.runtime.config.Yaml;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.tool.AnnotatedTools;
import dev.baton.runtime.tool.BatonTool;
import dev.baton.runtime.tool.Param;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcStores;
import dev.baton.testkit.db.PostgresTestDatabase;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A new message to a session whose turn waits for approval supersedes that turn before the message is stored: on a
 * database store the message's append itself refuses while a turn is paused (no lookup of a paused turn in every
 * turn), the paused turn is ended — its call denied, its answer so far stored as cancelled — and the message appended
 * after it. A message a before_ai module blocks does the same. On SQLite and PostgreSQL, with durable turns (the
 * message leased with its turn) and without, against the LLM simulator.
 */
class PausedTurnSupersededIT {
    private static final AgentDefinition AGENT =
            AgentDefinition.of("files", "You manage files.", "simulator:default", List.of("remove_file"));
    private static final Principal ALICE = Principal.of("acme", "alice", Set.of(Sessions.READ, Sessions.WRITE));
    private static final String DURABLE = """
            durableTurns:
              enabled: true
              instanceId: api-1
            """;

    @TempDir
    Path dir;

    private final List<String> removed = new CopyOnWriteArrayList<>();
    private LlmSimulator sim;
    private PostgresTestDatabase postgres;
    private Database db;
    private Baton baton;

    /** remove_file is destructive: a turn that calls it waits for the user's approval. */
    public final class Files {
        @BatonTool(name = "remove_file", description = "Removes a file.", destructive = true)
        public String remove(@Param(name = "path", description = "The file") String path) {
            removed.add(path);
            return "removed " + path;
        }
    }

    /** Blocks any message that mentions passwords. */
    static final class PasswordGuard implements Module {
        @Override
        public ModuleDescriptor descriptor() {
            return ModuleDescriptor.of("password-guard", Hook.BEFORE_AI);
        }

        @Override
        public HookResult handle(HookContext context) {
            return context.conversation().currentMessage().contains("password")
                    ? HookResult.block("secrets", "I cannot help with passwords.", List.of("password"))
                    : HookResult.proceed();
        }
    }

    @AfterEach
    void stop() {
        if (baton != null) baton.close();
        if (db != null) db.close();
        if (postgres != null) postgres.drop();
        if (sim != null) sim.close();
    }

    @ParameterizedTest(name = "{0}, durable turns {1}")
    @CsvSource({"sqlite, true", "postgresql, true", "postgresql, false"})
    void a_new_message_supersedes_the_paused_turn_before_it_is_stored(String database, boolean durable) {
        start(database, durable);
        assertThat(baton.approvals().supersedesOnAppend())
                .as("the append refuses while a turn is paused")
                .isTrue();
        Session session = baton.sessions().start(ALICE, "files", null);
        assertThat(send(session, "remove a.txt").outcome().awaitingApproval()).isPresent();

        SendResult.Ran next = send(session, "what is left?");

        assertThat(next.outcome().terminal()).isInstanceOf(TurnEvent.Done.class);
        assertThat(messages(session))
                .extracting(Message::role, Message::status, Message::seq)
                .containsExactly(
                        tuple(MessageRole.USER, MessageStatus.COMPLETE, 1L),
                        tuple(MessageRole.ASSISTANT, MessageStatus.CANCELLED, 2L),
                        tuple(MessageRole.USER, MessageStatus.COMPLETE, 3L),
                        tuple(MessageRole.ASSISTANT, MessageStatus.COMPLETE, 4L));
        assertThat(next.outcome().userMessage().content()).isEqualTo("what is left?");
        assertThat(removed).isEmpty();
        assertThat(baton.approvals().pending(ALICE, session.id())).isEmpty();
        assertThat(baton.approvals().sessionAudit("acme", session.id()))
                .extracting(ToolApproval::toolName, ToolApproval::status)
                .containsExactly(tuple("remove_file", ApprovalStatus.SUPERSEDED));
        assertThat(sim.requests().getLast().rawBody())
                .as("the new message's model reads the conversation up to it")
                .containsSubsequence("\"remove a.txt\"", "\"what is left?\"");
        assertThat(count("SELECT count(*) FROM running_turns")).isZero();
        assertThat(baton.sessions().find(ALICE, session.id()).orElseThrow().messageCount())
                .isEqualTo(4);
    }

    @ParameterizedTest(name = "{0}, durable turns {1}")
    @CsvSource({"sqlite, true", "postgresql, false"})
    void a_blocked_message_supersedes_the_paused_turn_too(String database, boolean durable) {
        start(database, durable);
        Session session = baton.sessions().start(ALICE, "files", null);
        assertThat(send(session, "remove a.txt").outcome().awaitingApproval()).isPresent();
        long modelCalls = sim.requestCount();

        SendResult.Ran blocked = send(session, "my password is hunter2");

        assertThat(blocked.outcome().terminal())
                .isInstanceOfSatisfying(
                        TurnEvent.Done.class, d -> assertThat(d.stopReason()).isEqualTo(TurnEvent.Done.BLOCKED));
        assertThat(messages(session))
                .extracting(Message::role, Message::status, Message::content)
                .containsExactly(
                        tuple(MessageRole.USER, MessageStatus.COMPLETE, "remove a.txt"),
                        tuple(MessageRole.ASSISTANT, MessageStatus.CANCELLED, ""),
                        tuple(MessageRole.USER, MessageStatus.BLOCKED, "[blocked]"),
                        tuple(MessageRole.ASSISTANT, MessageStatus.COMPLETE, "I cannot help with passwords."));
        assertThat(baton.approvals().pending(ALICE, session.id())).isEmpty();
        assertThat(sim.requestCount()).as("a blocked message asks no model").isEqualTo(modelCalls);
        assertThat(removed).isEmpty();
    }

    private void start(String database, boolean durable) {
        sim = LlmSimulator.start(SimulatorScript.builder()
                .whenUserSays("remove a.txt", Reply.toolCall("remove_file", "{\"path\":\"a.txt\"}"))
                .fallback("Nothing was removed.")
                .build());
        String url;
        if (database.equals("sqlite")) {
            url = "jdbc:sqlite:" + dir.resolve("baton.db");
        } else {
            postgres = PostgresTestDatabase.create();
            url = postgres.url();
        }
        db = Database.open(url);
        JdbcStores stores = JdbcStores.of(db);
        baton = stores.applyTo(Baton.builder())
                .configure(Yaml.parse(durable ? DURABLE : "{}"))
                .modules(ModuleSource.of(List.of(new PasswordGuard())), stores.audit())
                .models(ConfiguredModelResolver.builder()
                        .simulator(sim.baseUrl(), null)
                        .build())
                .tokenCounter(String::length)
                .agents(AgentRegistry.of(List.of(AGENT)))
                .tools(AnnotatedTools.named("files", new Files()))
                .build();
    }

    private SendResult.Ran send(Session session, String text) {
        return (SendResult.Ran)
                baton.conversations().send(ALICE, session.id(), text, SendOptions.withNewRequestId(), e -> {});
    }

    private List<Message> messages(Session session) {
        return baton.sessions().messages(ALICE, session.id(), null, 50).messages();
    }

    private int count(String sql) {
        return RowCounts.count(db, sql);
    }
}
