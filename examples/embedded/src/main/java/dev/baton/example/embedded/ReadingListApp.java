package dev.baton.example.embedded;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.turn.TurnEvent;
import dev.baton.providers.openai.OpenAiCompatibleConfig;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.providers.token.JtokkitTokenCounter;
import dev.baton.runtime.Baton;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.admission.RateLimitSettings;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.tool.AnnotatedTools;
import dev.baton.simulator.Condition;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcStores;
import java.util.List;
import java.util.Set;

/**
 * Baton embedded in a plain Java program, with no HTTP server: the {@link ReadingList} service as tools, an agent
 * defined in code, SQLite stores in a file and a model behind an OpenAI-compatible base URL.
 *
 * <pre>
 * java -cp ... dev.baton.example.embedded.ReadingListApp [baseUrl [model [message]]]
 * </pre>
 *
 * With no base URL the bundled LLM simulator answers; {@code OPENAI_API_KEY} is sent when set.
 */
public final class ReadingListApp {

    public static final AgentDefinition LIBRARIAN = AgentDefinition.of(
            "librarian",
            "You keep the user's reading list. Use the tools; never guess a book's id.",
            "compatible:llm",
            List.of("add_book", "list_books", "mark_read"));

    private ReadingListApp() {}

    public static void main(String[] args) {
        String model = args.length > 1 ? args[1] : "gpt-4o-mini";
        String message = args.length > 2 ? args[2] : "add Dune to my reading list";
        ReadingList books = new ReadingList();
        // with no model server named a scripted one stands in, so the program runs anywhere
        try (LlmSimulator simulator = args.length == 0 ? LlmSimulator.start(simulatedModel()) : null;
                ConfiguredModelResolver models = models(
                        simulator != null ? simulator.baseUrl() : args[0], model, System.getenv("OPENAI_API_KEY"));
                Database db = Database.open("jdbc:sqlite:reading-list.db");
                Baton baton = baton(db, models, books)) {
            Principal alice = reader("acme", "alice");
            Session session = baton.sessions().start(alice, LIBRARIAN.id(), null);
            try {
                SendOptions options = SendOptions.withNewRequestId();
                baton.conversations().send(alice, session.id(), message, options, ReadingListApp::print);
            } catch (RefusalException e) {
                System.out.println(explain(e.refusal()));
            }
            System.out.println();
            System.out.println("alice's reading list: " + books.list(alice));
        }
    }

    /** Streams the answer as it arrives; a front door would write these to its own wire instead. */
    static void print(TurnEvent event) {
        switch (event) {
            case TurnEvent.Chunk chunk -> System.out.print(chunk.content());
            case TurnEvent.ToolCallStarted call -> System.out.println("[" + call.name() + " " + call.arguments() + "]");
            case TurnEvent.Failed failed -> System.out.println("[failed: " + failed.message() + "]");
            default -> {}
        }
    }

    /**
     * How often a reader may send: typed settings, as baton.yaml's {@code rateLimits} section would give them (ten
     * messages a minute and a hundred an hour per user).
     */
    public static final RateLimitSettings READER_LIMITS = RateLimitSettings.DEFAULTS.withPerUser(10, 100);

    /** The runtime over the database and models given; closing it leaves both open for their owner to close. */
    public static Baton baton(Database db, ModelResolver models, ReadingList books) {
        return JdbcStores.of(db)
                .applyTo(Baton.builder())
                .rateLimits(READER_LIMITS)
                .models(models)
                .tokenCounter(new JtokkitTokenCounter())
                .agents(AgentRegistry.of(List.of(LIBRARIAN)))
                .tools(AnnotatedTools.named("reading-list", new ReadingListTools(books)))
                .build();
    }

    /** {@code compatible:llm} is {@code model} at an OpenAI-compatible base URL; {@code apiKey} may be null. */
    public static ConfiguredModelResolver models(String baseUrl, String model, String apiKey) {
        return ConfiguredModelResolver.builder()
                .compatible("llm", OpenAiCompatibleConfig.compatible("llm", baseUrl, apiKey), model)
                .build();
    }

    /** A signed-in user as the application's own authentication would hand it over. */
    public static Principal reader(String tenantId, String userId) {
        return Principal.of(
                tenantId, userId, Set.of(Sessions.READ, Sessions.WRITE, ReadingListTools.READ, ReadingListTools.WRITE));
    }

    /** What to tell the user when Baton refuses a message, by what they can do next. */
    public static String explain(Refusal refusal) {
        return switch (refusal) {
            case Refusal.RateLimited limited ->
                "Slow down: try again in " + limited.retryAfter().toSeconds() + " s.";
            case Refusal.BudgetExceeded budget -> "Your AI budget is used up for now.";
            case Refusal.SessionBusy busy -> "Still answering your last message.";
            case Refusal.IdempotencyKeyInUse inUse -> "Still answering your last message.";
            case Refusal.SessionCompleted completed -> "This conversation is over; start a new one.";
            case Refusal.AgentUnavailable gone -> "This assistant is no longer available; start a new conversation.";
            case Refusal.NotFound notFound -> "No such conversation.";
            case Refusal.Forbidden forbidden -> "You may not do that: " + forbidden.message();
            case Refusal.InvalidInput invalid -> invalid.message();
            case Refusal.InvalidValue invalid -> invalid.message();
            case Refusal.IdempotencyKeyReused reused -> reused.message();
            case Refusal.ApprovalNotPending closed -> "That action is no longer waiting for your decision.";
            case Refusal.InvalidArguments invalid -> invalid.message();
        };
    }

    /** Stands in for a model when none is named: it adds the book the user names, then says so. */
    static SimulatorScript simulatedModel() {
        return SimulatorScript.builder()
                .whenUserMatches("add (.+?) to my reading list", Reply.toolCall("add_book", "{\"title\":\"$1\"}"))
                .when(Condition.ToolResult.of("add_book", "\"title\":\"([^\"]+)\""), Reply.text("Added $1."))
                .fallback("I can add a book to your reading list: say \"add Dune to my reading list\".")
                .build();
    }
}
