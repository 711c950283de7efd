package dev.baton.server.app;

import dev.baton.core.model.ModelResolver;
import dev.baton.core.tool.ToolSource;
import dev.baton.learning.LearningModule;
import dev.baton.mcp.client.McpClients;
import dev.baton.notes.NotesModule;
import dev.baton.providers.pricing.PriceTable;
import dev.baton.providers.resilience.BreakerToolSource;
import dev.baton.providers.resilience.ResilienceConfig;
import dev.baton.providers.resilience.ResilientModelResolver;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.providers.token.JtokkitTokenCounter;
import dev.baton.redis.RedisTurnEventLog;
import dev.baton.redis.SharedRedis;
import dev.baton.redis.SharedTurns;
import dev.baton.runtime.Baton;
import dev.baton.runtime.BatonBuilder;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.stream.TurnEventLogSettings;
import dev.baton.server.auth.JwtAuthenticator;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.JwtSettings;
import dev.baton.server.compat.CompatRoutes;
import dev.baton.server.compat.CompatSettings;
import dev.baton.server.config.BatonConfig;
import dev.baton.server.http.HttpApi;
import dev.baton.server.http.HttpSettings;
import dev.baton.server.http.SseStreams;
import dev.baton.server.metrics.BatonMetrics;
import dev.baton.server.metrics.BreakerMeters;
import dev.baton.server.metrics.ExperimentMeters;
import dev.baton.server.metrics.HttpMetrics;
import dev.baton.server.metrics.MeteredModelResolver;
import dev.baton.server.metrics.MetricsRoutes;
import dev.baton.server.metrics.RefusalMeters;
import dev.baton.server.metrics.SessionMeters;
import dev.baton.server.metrics.TurnMetrics;
import dev.baton.server.trace.TraceContextRoutes;
import dev.baton.server.trace.Tracing;
import dev.baton.server.web.DevSignIn;
import dev.baton.server.web.WebPageRoutes;
import dev.baton.server.web.WebPageSettings;
import dev.baton.simulator.BundledScript;
import dev.baton.simulator.LlmSimulator;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.DatabaseSettings;
import dev.baton.store.jdbc.JdbcApprovalStore;
import dev.baton.store.jdbc.JdbcAuditStore;
import dev.baton.store.jdbc.JdbcConversationSearch;
import dev.baton.store.jdbc.JdbcConversationStore;
import dev.baton.store.jdbc.JdbcIdempotencyStore;
import dev.baton.store.jdbc.JdbcSessionLifecycle;
import dev.baton.store.jdbc.SqliteSearchIndex;
import dev.baton.store.jdbc.experiment.JdbcExperimentStore;
import dev.baton.store.jdbc.experiment.JdbcFlagStore;
import dev.baton.store.jdbc.usage.JdbcUsageStore;
import dev.baton.tasks.TaskModule;
import io.javalin.Javalin;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Baton instance: database, stores, the task domain, models, the turn runner and the HTTP API, wired
 * together. With no provider configured it starts the bundled LLM simulator and says so loudly.
 */
public final class BatonServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BatonServer.class);
    /** How often SQLite's full-text index takes the messages stored since (searches catch up by themselves too). */
    private static final Duration SEARCH_INDEX_EVERY = Duration.ofSeconds(1);

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
     * @param generatedJwtSecret the configuration's JWT secret was generated for this run ({@code baton serve} with
     *     none configured): the web page may then sign a local browser in as the development user
     */
    public record Options(
            String host, Clock clock, Duration sseHeartbeat, String simulatorBaseUrl, boolean generatedJwtSecret) {

        /** Options for a server whose JWT secret was configured, not generated. */
        public Options(String host, Clock clock, Duration sseHeartbeat, String simulatorBaseUrl) {
            this(host, clock, sseHeartbeat, simulatorBaseUrl, false);
        }

        public static Options defaults(String host) {
            return new Options(host, Clock.systemUTC(), Duration.ofSeconds(1), null);
        }

        /** These options, saying whether the JWT secret was generated for this run. */
        public Options withGeneratedJwtSecret(boolean generated) {
            return new Options(host, clock, sseHeartbeat, simulatorBaseUrl, generated);
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
        LearningSettings learningSettings = LearningSettings.parse(config.section("learning"));
        CompatSettings compat = CompatSettings.parse(config.section("compat"));
        Deque<AutoCloseable> opened = new ArrayDeque<>();
        try {
            LlmSimulator simulator = null;
            String simulatorUrl = options.simulatorBaseUrl();
            boolean simulatorOnly = settings.simulatorOnly();
            String defaultModel = settings.defaultModel();
            if (simulatorUrl == null && simulatorOnly) {
                simulator = opened(opened, bundledSimulator(clock));
                simulatorUrl = simulator.baseUrl();
            }
            ConfiguredModelResolver configured =
                    opened(opened, Models.resolver(config.models(), settings.providers(), simulatorUrl));
            // before the database opens: a model no provider serves is a configuration error, found first
            settings.checkModels(configured).forEach(w -> log.warn("configuration: {}", w));

            Database db = opened(opened, openDatabase(config));
            // SQLite's full-text index is filled in batches, so that a message's commit does not write it
            opened(opened, SqliteSearchIndex.start(db, SEARCH_INDEX_EVERY));
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
            JdbcConversationStore conversationStore = new JdbcConversationStore(db);
            LearningModule learning = LearningModule.create(
                    db,
                    clock,
                    LearningModule.Options.DEFAULTS
                            .withConversations(conversationStore)
                            .withGenerator(new ModelContentGenerator(
                                    models, agents, "learning", conversationStore, settings.prices(), clock))
                            .withWorker(learningSettings.jobs())
                            .withRetention(learningSettings.retention()));
            learning.seedCatalogue(learningSettings.catalogue());
            learning.seedLibrary(learningSettings.library());
            // the learning agent's memory module was registered (and checked) before the database opened
            settings.learningMemory().set(learning.memoryGuidance().create(null));
            McpClients mcp = opened(opened, McpWiring.start(config, db, clock));
            PriceTable prices = settings.prices();
            JdbcAuditStore auditStore = new JdbcAuditStore(db);
            JdbcUsageStore usage = new JdbcUsageStore(db);
            SharedRedis redis = sharedRedis(settings, opened);
            TurnMetrics turnMetrics = new TurnMetrics(metrics.registry());
            Tracing tracing = opened(opened, Tracing.start(settings.tracing()));
            BatonBuilder builder = Baton.builder()
                    .clock(clock)
                    .configure(config.raw())
                    .conversationStore(conversationStore)
                    .sessionStore(new JdbcSessionLifecycle(db))
                    .conversationSearch(new JdbcConversationSearch(db))
                    .idempotencyStore(new JdbcIdempotencyStore(db))
                    .approvalStore(new JdbcApprovalStore(db))
                    .usageStore(usage)
                    .models(new MeteredModelResolver(models, metrics.registry(), prices))
                    .tokenCounter(new JtokkitTokenCounter())
                    .prices(prices)
                    .agents(agents)
                    .tools(tasks.toolSource(), notes.toolSource(), learning.platformTools(), learning.agentTools())
                    // after the built-in tools: a name taken by an earlier source can never be shadowed
                    .tools(mcp.toolSources().toArray(ToolSource[]::new))
                    .toolGuard(sources -> BreakerToolSource.guard(sources, resilience.tools(), clock, breakerMeters))
                    .modules(settings.modules(), auditStore)
                    .refusalListener(new RefusalMeters(metrics.registry()))
                    .experimentStore(new JdbcExperimentStore(db))
                    .flagStore(new JdbcFlagStore(db))
                    .experimentListener(new ExperimentMeters(metrics.registry()))
                    .environment(config.env())
                    .observer(turnMetrics)
                    .tracing(tracing.turns());
            Admission.configure(builder, settings, clock, redis, opened);
            if (redis != null) {
                builder.turnLocks(onCancel -> SharedTurns.connect(redis, settings.turns(), onCancel));
                builder.turnEventLog(opened(opened, RedisTurnEventLog.connect(redis, streamSettings(config))));
            }
            Baton baton = opened(opened, builder.build());
            turnMetrics.watching(baton.runningTurns());
            RuntimeGauges.register(db, baton, metrics.registry());
            metrics.watch(baton.modules().failures());
            metrics.watch(baton.modules().activity());
            baton.sessionEvents().add(new SessionMeters(metrics.registry()));
            String modelMode = simulatorOnly ? "simulator" : defaultModel;
            HttpSettings http = httpSettings(config);
            SseStreams sse = new SseStreams(http.sseBufferBytes(), sseHeartbeat, metrics.registry());
            List<Consumer<RoutesConfig>> routes =
                    new ArrayList<>(ServerRoutes.api(config, db, modelMode, resilient, mcp, baton, sse, auditStore));
            routes.addAll(ServerRoutes.domains(config, tasks, notes, learning));
            routes.add(new MetricsRoutes(metrics)::register);
            routes.add(webPage(config, options)::register);
            if (tracing.isOn()) {
                routes.add(new TraceContextRoutes(
                        tracing.openTelemetry().getPropagators().getTextMapPropagator())::register);
            }
            routes.addAll(CompatRoutes.groups(compat, baton, learning, config.maxBodyBytes(), sse));
            Javalin app = HttpApi.create(
                    host, config.port(), http, auth, routes, new HttpMetrics(metrics.registry())::record);
            app.start();
            log.info(
                    "baton listening on http://{}:{} (accept queue {}, database {}, model {})",
                    host,
                    app.port(),
                    http.acceptQueue(),
                    db.dialect(),
                    modelMode);
            log.info("limits: {}", baton.describeLimits());
            BatonServer server = new BatonServer(app, baton, simulator != null, opened);
            baton.startBackgroundJobs();
            // the learning domain's content-job worker and its retention purge
            opened.push(learning.startBackgroundJobs());
            return server;
        } catch (RuntimeException e) {
            closeAll(opened);
            throw e;
        }
    }

    /** The bundled simulator, answering when no model provider is configured, and a warning saying so. */
    private static LlmSimulator bundledSimulator(Clock clock) {
        LlmSimulator simulator = LlmSimulator.start(BundledScript.create(clock));
        log.warn(
                "NO MODEL PROVIDER CONFIGURED: answering with the bundled LLM SIMULATOR at {} "
                        + "(set OPENAI_API_KEY, ANTHROPIC_API_KEY, AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_KEY, "
                        + "OLLAMA_BASE_URL, or OPENAI_BASE_URL for an OpenAI-compatible server, to use a real model)",
                simulator.baseUrl());
        return simulator;
    }

    /** The database, migrated for the runtime and the built-in domains; one that cannot be opened is named. */
    private static Database openDatabase(BatonConfig config) {
        try {
            return Database.open(
                    config.databaseUrl(),
                    List.of(TaskModule.MIGRATIONS, NotesModule.MIGRATIONS, LearningModule.MIGRATIONS),
                    databaseSettings(config));
        } catch (RuntimeException e) {
            throw DatabaseUnavailableException.of(config.databaseUrl(), e);
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

    /** The web app; development sign-in only when this run generated its secret and no identity provider is set. */
    private static WebPageRoutes webPage(BatonConfig config, Options options) {
        boolean devSignIn = options.generatedJwtSecret()
                && config.jwtSecret() != null
                && !JwtSettings.jwksConfigured(config.section("jwt"), config.env());
        return new WebPageRoutes(
                WebPageSettings.parse(config.section("web")),
                devSignIn
                        ? DevSignIn.withGeneratedSecret(JwtSecret.of(config.jwtSecret()), options.clock())
                        : DevSignIn.off());
    }

    private static HttpSettings httpSettings(BatonConfig config) {
        try {
            return HttpSettings.from(config.section("server"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private static DatabaseSettings databaseSettings(BatonConfig config) {
        try {
            return DatabaseSettings.from(config.section("database"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private static TurnEventLogSettings streamSettings(BatonConfig config) {
        try {
            return TurnEventLogSettings.from(config.section("streams"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
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
