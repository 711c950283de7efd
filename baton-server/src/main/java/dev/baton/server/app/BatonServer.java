package dev.baton.server.app;

import dev.baton.core.model.ModelResolver;
import dev.baton.notes.NotesModule;
import dev.baton.providers.pricing.PriceTable;
import dev.baton.providers.resilience.BreakerToolSource;
import dev.baton.providers.resilience.ResilienceConfig;
import dev.baton.providers.resilience.ResilientModelResolver;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.providers.token.JtokkitTokenCounter;
import dev.baton.redis.SharedRedis;
import dev.baton.redis.SharedTurns;
import dev.baton.runtime.Baton;
import dev.baton.runtime.BatonBuilder;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.server.api.AuditRoutes;
import dev.baton.server.api.CatalogRoutes;
import dev.baton.server.api.HealthRoutes;
import dev.baton.server.api.MessageRoutes;
import dev.baton.server.api.NoteRoutes;
import dev.baton.server.api.SessionRoutes;
import dev.baton.server.api.TaskRoutes;
import dev.baton.server.auth.JwtAuthenticator;
import dev.baton.server.config.BatonConfig;
import dev.baton.server.http.HttpApi;
import dev.baton.server.metrics.BatonMetrics;
import dev.baton.server.metrics.BreakerMeters;
import dev.baton.server.metrics.HttpMetrics;
import dev.baton.server.metrics.MeteredModelResolver;
import dev.baton.server.metrics.MetricsRoutes;
import dev.baton.server.metrics.RefusalMeters;
import dev.baton.server.metrics.TurnMetrics;
import dev.baton.server.usage.UsageRoutes;
import dev.baton.server.web.WebPageRoutes;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcAuditStore;
import dev.baton.store.jdbc.JdbcConversationSearch;
import dev.baton.store.jdbc.JdbcConversationStore;
import dev.baton.store.jdbc.JdbcIdempotencyStore;
import dev.baton.store.jdbc.JdbcSessionLifecycle;
import dev.baton.store.jdbc.usage.JdbcUsageStore;
import dev.baton.tasks.TaskModule;
import io.javalin.Javalin;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Baton instance: database, stores, the task domain, models, the turn runner and the HTTP API, wired
 * together. With no provider configured it starts the bundled LLM simulator and says so loudly.
 */
public final class BatonServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BatonServer.class);

    private final Javalin http;
    private final Baton baton;
    private final boolean simulated;
    /** What the instance opened, closed in reverse order after the HTTP server stops. */
    private final Deque<AutoCloseable> opened;

    private BatonServer(Javalin http, Baton baton, boolean simulated, Deque<AutoCloseable> opened) {
        this.http = http;
        this.baton = baton;
        this.simulated = simulated;
        this.opened = opened;
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
        return start(ServerSettings.read(config), options);
    }

    /** Starts with settings already read and checked (see {@link ServerSettings#read}). */
    public static BatonServer start(ServerSettings settings, Options options) {
        BatonConfig config = settings.config();
        String host = options.host();
        Clock clock = options.clock();
        Duration sseHeartbeat = options.sseHeartbeat();
        JwtAuthenticator auth = JwtAuthenticator.create(settings.jwt(), config.rolePermissions());
        Deque<AutoCloseable> opened = new ArrayDeque<>();
        try {
            LlmSimulator simulator = null;
            String simulatorUrl = options.simulatorBaseUrl();
            boolean simulatorOnly = settings.simulatorOnly();
            String defaultModel = settings.defaultModel();
            if (simulatorUrl == null && simulatorOnly) {
                simulator = opened(opened, LlmSimulator.start(TaskAgentScript.create()));
                log.warn(
                        "NO MODEL PROVIDER CONFIGURED: answering with the bundled LLM SIMULATOR at {} "
                                + "(set OPENAI_API_KEY, ANTHROPIC_API_KEY, AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_KEY, "
                                + "OLLAMA_BASE_URL, or OPENAI_BASE_URL for an OpenAI-compatible server, to use a real model)",
                        simulator.baseUrl());
                simulatorUrl = simulator.baseUrl();
            }
            ConfiguredModelResolver configured =
                    opened(opened, Models.resolver(config.models(), settings.providers(), simulatorUrl));
            // before the database opens: a model no provider serves is a configuration error, found first
            settings.checkModels(configured).forEach(w -> log.warn("configuration: {}", w));

            Database db;
            try {
                db = Database.open(config.databaseUrl(), List.of(TaskModule.MIGRATIONS, NotesModule.MIGRATIONS));
            } catch (RuntimeException e) {
                throw DatabaseUnavailableException.of(config.databaseUrl(), e);
            }
            opened.push(db);
            BatonMetrics metrics = opened(opened, BatonMetrics.create(settings.metrics()));
            BreakerMeters breakerMeters = new BreakerMeters(metrics.registry());
            ResilienceConfig resilience = settings.resilience();
            // retries, first-token limits, per-provider breakers and agents' fallback models
            ResilientModelResolver resilient = new ResilientModelResolver(configured, resilience.models(), clock)
                    .withBreakerListener(breakerMeters);
            ModelResolver models = resilient;
            // every model an agent uses, resolved now (they were checked): /readyz shows each provider's breaker
            settings.agents().all().forEach(a -> resilient.resolve(a.model()));
            AgentRegistry agents = settings.agents();
            TaskModule tasks = TaskModule.create(db, clock);
            NotesModule notes = NotesModule.create(db, clock);
            PriceTable prices = settings.prices();
            JdbcAuditStore auditStore = new JdbcAuditStore(db);
            JdbcUsageStore usage = new JdbcUsageStore(db);
            SharedRedis redis = sharedRedis(settings, opened);
            TurnMetrics turnMetrics = new TurnMetrics(metrics.registry());
            BatonBuilder builder = Baton.builder()
                    .clock(clock)
                    .configure(config.raw())
                    .conversationStore(new JdbcConversationStore(db))
                    .sessionStore(new JdbcSessionLifecycle(db))
                    .conversationSearch(new JdbcConversationSearch(db))
                    .idempotencyStore(new JdbcIdempotencyStore(db))
                    .usageStore(usage)
                    .models(new MeteredModelResolver(models, metrics.registry(), prices))
                    .tokenCounter(new JtokkitTokenCounter())
                    .prices(prices)
                    .agents(agents)
                    .tools(tasks.toolSource(), notes.toolSource())
                    .toolGuard(sources -> BreakerToolSource.guard(sources, resilience.tools(), clock, breakerMeters))
                    .modules(settings.modules(), auditStore)
                    .refusalListener(new RefusalMeters(metrics.registry()))
                    .observer(turnMetrics);
            Admission.configure(builder, settings, clock, redis, opened);
            if (redis != null) builder.turnLocks(onCancel -> SharedTurns.connect(redis, settings.turns(), onCancel));
            Baton baton = opened(opened, builder.build());
            turnMetrics.watching(baton.runningTurns());
            metrics.watch(baton.modules().failures());
            String modelMode = simulatorOnly ? "simulator" : defaultModel;
            Javalin app = HttpApi.create(
                    host,
                    config.port(),
                    auth,
                    List.of(
                            new HealthRoutes(() -> db.isUp(2), modelMode, resilient::breakerStates)::register,
                            new CatalogRoutes(baton.agents(), baton.tools())::register,
                            new SessionRoutes(baton.sessions(), config.maxBodyBytes())::register,
                            new MessageRoutes(baton.conversations(), config.maxBodyBytes(), sseHeartbeat)::register,
                            new UsageRoutes(baton.usage())::register,
                            new AuditRoutes(auditStore)::register,
                            new TaskRoutes(tasks.service(), config.maxBodyBytes())::register,
                            new NoteRoutes(notes.service(), config.maxBodyBytes())::register,
                            new MetricsRoutes(metrics)::register,
                            new WebPageRoutes()::register),
                    new HttpMetrics(metrics.registry())::record);
            app.start();
            log.info(
                    "baton listening on http://{}:{} (database {}, model {})",
                    host,
                    app.port(),
                    db.dialect(),
                    modelMode);
            log.info("limits: {}", baton.describeLimits());
            BatonServer server = new BatonServer(app, baton, simulator != null, opened);
            baton.startBackgroundJobs();
            return server;
        } catch (RuntimeException e) {
            closeAll(opened);
            throw e;
        }
    }

    private static <T extends AutoCloseable> T opened(Deque<AutoCloseable> opened, T resource) {
        opened.push(resource);
        return resource;
    }

    /** Closes newest first; one failing close does not keep the rest open. */
    private static void closeAll(Deque<AutoCloseable> opened) {
        while (!opened.isEmpty()) {
            AutoCloseable next = opened.pop();
            try {
                next.close();
            } catch (Exception e) {
                log.warn("closing {} failed: {}", next.getClass().getSimpleName(), e.toString());
            }
        }
    }

    /** The Redis that instances share (rate limits, budgets, turn locks), or null when none is configured. */
    private static SharedRedis sharedRedis(ServerSettings settings, Deque<AutoCloseable> opened) {
        String url = settings.rateLimits().redisUrl();
        return url == null ? null : opened(opened, SharedRedis.create(url));
    }

    public int port() {
        return http.port();
    }

    /** The runtime this server is the HTTP front door of. */
    public Baton runtime() {
        return baton;
    }

    /** True when the bundled simulator answers instead of a real model. */
    public boolean simulated() {
        return simulated;
    }

    @Override
    public void close() {
        http.stop();
        closeAll(opened);
    }
}
