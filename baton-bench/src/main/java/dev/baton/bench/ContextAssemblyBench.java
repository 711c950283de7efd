package dev.baton.bench;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.auth.Principal;
import dev.baton.core.context.BuiltContext;
import dev.baton.core.context.ContextBuilder;
import dev.baton.core.context.ContextRequest;
import dev.baton.core.context.PromptSections;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.id.Ids;
import dev.baton.core.model.ToolSpec;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.providers.token.JtokkitTokenCounter;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcConversationStore;
import dev.baton.tasks.TaskModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link ContextBuilder#build} for the task agent (its real system prompt and six tool schemas, history capped at
 * 20 messages / 4000 tokens, jtokkit counting) against {@link JdbcConversationStore} on SQLite holding
 * {@code history} messages. The claim checked: assembling the context costs the same at 10 and 10 000 messages.
 * {@link #historyQuery} is the store's bounded read alone, to show how the cost splits.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-DBATON_LOG_LEVEL=WARN", "-Xms512m", "-Xmx512m"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class ContextAssemblyBench {
    static final TurnLimits LIMITS = new TurnLimits(
            5, 10, 50, 20, 4000, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(45));
    private static final String USER = "bench-user";

    @Param({"10", "1000", "10000"})
    public int history;

    private Path dir;
    private Database db;
    private JdbcConversationStore store;
    private ContextBuilder builder;
    private ContextRequest request;
    private String sessionId;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("baton-bench-context");
        db = Database.open("jdbc:sqlite:" + dir.resolve("baton.db"), List.of(TaskModule.MIGRATIONS));
        store = new JdbcConversationStore(db);
        Clock clock = Clock.systemUTC();
        AgentDefinition agent = AgentRegistry.load(List.of("agents/tasks.yaml"), List.of(), LIMITS, "simulator:default")
                .find(BenchServer.AGENT)
                .orElseThrow(() -> new IllegalStateException("no built-in tasks agent"));
        List<ToolSpec> tools =
                new ToolCatalog(List.of(TaskModule.create(db, clock).toolSource())).specsFor(agent);
        Principal principal = new Principal(
                USER,
                "default",
                "Bench User",
                null,
                Set.of("student"),
                Set.of("tasks:read:self", "tasks:write:self"),
                List.of());

        sessionId = Ids.newId();
        store.createSession(Session.start(sessionId, "default", USER, agent.id(), null, clock.instant()));
        new ConversationSeeder(db, clock).seed(USER, sessionId, history);
        Message current = store.appendUserMessage(new Message(
                Ids.newId(),
                sessionId,
                USER,
                0,
                MessageRole.USER,
                "What is left on my list for this week?",
                MessageStatus.COMPLETE,
                null,
                clock.instant()));

        builder = new ContextBuilder(store, new JtokkitTokenCounter(), clock);
        request = new ContextRequest(principal, agent, sessionId, current, PromptSections.NONE, tools);
        BuiltContext built = builder.build(request);
        int expected = Math.min(history, LIMITS.historyMessages());
        if (built.historyMessages() != expected || built.countFallback()) {
            throw new IllegalStateException("expected " + expected + " history messages, built " + built);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        db.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The whole context: system prompt, bounded history query, token counting and trimming. */
    @Benchmark
    public BuiltContext build() {
        return builder.build(request);
    }

    /** Only the store's read of the newest 21 messages (cap + the current one). */
    @Benchmark
    public List<Message> historyQuery() {
        return store.recentMessages(USER, sessionId, LIMITS.historyMessages() + 1);
    }
}
