package dev.baton.server.app;

import dev.baton.core.hook.TurnHooks;
import dev.baton.core.model.CostCalculator;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.turn.TurnRunner;
import dev.baton.providers.token.JtokkitTokenCounter;
import dev.baton.server.agent.AgentRegistry;
import dev.baton.server.api.CatalogRoutes;
import dev.baton.server.api.HealthRoutes;
import dev.baton.server.api.MessageRoutes;
import dev.baton.server.api.SessionRoutes;
import dev.baton.server.api.TaskRoutes;
import dev.baton.server.auth.JwtAuthenticator;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.config.BatonConfig;
import dev.baton.server.config.ConfigException;
import dev.baton.server.http.HttpApi;
import dev.baton.server.turn.RunningTurns;
import dev.baton.server.turn.TurnDispatcher;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcConversationStore;
import dev.baton.store.jdbc.JdbcIdempotencyStore;
import dev.baton.tasks.TaskModule;
import dev.baton.testkit.sim.LlmSimulator;
import dev.baton.testkit.sim.TaskAgentScript;
import io.javalin.Javalin;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Baton instance: database, stores, the task domain, models, the turn runner and the HTTP API, wired
 * together. With no provider configured it starts the bundled LLM simulator and says so loudly.
 */
public final class BatonServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BatonServer.class);

    private final Database database;
    private final LlmSimulator simulator;
    private final TurnDispatcher dispatcher;
    private final Javalin http;

    private BatonServer(Database database, LlmSimulator simulator, TurnDispatcher dispatcher, Javalin http) {
        this.database = database;
        this.simulator = simulator;
        this.dispatcher = dispatcher;
        this.http = http;
    }

    /**
     * How to run an instance beyond its configuration.
     *
     * @param sseHeartbeat how often a quiet SSE stream is probed for a client that went away
     * @param simulatorBaseUrl an already running simulator for "simulator:*" models (tests); null starts the
     *     bundled one when no provider is configured
     */
    public record Options(String host, Clock clock, Duration sseHeartbeat, String simulatorBaseUrl) {
        public static Options defaults(String host) {
            return new Options(host, Clock.systemUTC(), Duration.ofSeconds(1), null);
        }
    }

    /** Starts on {@code config.port()} (0 picks a free port). */
    public static BatonServer start(BatonConfig config, Options options) {
        String host = options.host();
        Clock clock = options.clock();
        Duration sseHeartbeat = options.sseHeartbeat();
        if (config.jwtSecret() == null) throw new ConfigException("no JWT secret configured (BATON_JWT_SECRET)");
        JwtAuthenticator auth = new JwtAuthenticator(JwtSecret.of(config.jwtSecret()), config.rolePermissions());

        Database db = Database.open(config.databaseUrl(), List.of(TaskModule.MIGRATIONS));
        LlmSimulator simulator = null;
        try {
            String simulatorUrl = options.simulatorBaseUrl();
            if (simulatorUrl == null && config.models().simulatorOnly()) {
                simulator = LlmSimulator.start(TaskAgentScript.create());
                log.warn(
                        "NO MODEL PROVIDER CONFIGURED: answering with the bundled LLM SIMULATOR at {} "
                                + "(set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server, to use a real model)",
                        simulator.baseUrl());
                simulatorUrl = simulator.baseUrl();
            }
            ModelResolver models = Models.resolver(config.models(), simulatorUrl);
            AgentRegistry agents = AgentRegistry.load(
                    config.agentDirs(), config.limits(), config.models().defaultModel());
            TaskModule tasks = TaskModule.create(db, clock);
            ToolCatalog tools = new ToolCatalog(List.of(tasks.toolSource()));
            var store = new JdbcConversationStore(db);
            TurnRunner runner = new TurnRunner(
                    store, models, tools, new JtokkitTokenCounter(), CostCalculator.FREE, clock, TurnHooks.NONE);
            RunningTurns running = new RunningTurns();
            TurnDispatcher dispatcher = new TurnDispatcher(runner, running);
            SessionRoutes sessions = new SessionRoutes(store, agents, running, clock, config.maxBodyBytes());
            MessageRoutes messages = new MessageRoutes(
                    sessions,
                    agents,
                    dispatcher,
                    new JdbcIdempotencyStore(db),
                    clock,
                    config.maxBodyBytes(),
                    sseHeartbeat);
            String modelMode = config.models().simulatorOnly()
                    ? "simulator"
                    : config.models().defaultModel();
            Javalin app = HttpApi.create(
                    host,
                    config.port(),
                    auth,
                    List.of(
                            new HealthRoutes(() -> databaseUp(db), modelMode)::register,
                            new CatalogRoutes(agents, tools)::register,
                            sessions::register,
                            messages::register,
                            new TaskRoutes(tasks.service(), config.maxBodyBytes())::register));
            app.start();
            log.info(
                    "baton listening on http://{}:{} (database {}, model {})",
                    host,
                    app.port(),
                    db.dialect(),
                    modelMode);
            return new BatonServer(db, simulator, dispatcher, app);
        } catch (RuntimeException e) {
            if (simulator != null) simulator.close();
            db.close();
            throw e;
        }
    }

    private static boolean databaseUp(Database db) {
        try {
            return db.withConnection(c -> c.isValid(2));
        } catch (RuntimeException e) {
            return false;
        }
    }

    public int port() {
        return http.port();
    }

    /** True when the bundled simulator answers instead of a real model. */
    public boolean simulated() {
        return simulator != null;
    }

    @Override
    public void close() {
        http.stop();
        dispatcher.close();
        if (simulator != null) simulator.close();
        database.close();
    }
}
