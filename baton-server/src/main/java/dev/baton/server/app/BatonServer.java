package dev.baton.server.app;

import dev.baton.core.hook.ModuleRegistry;
import dev.baton.core.model.ModelResolver;
import dev.baton.notes.NotesModule;
import dev.baton.providers.pricing.PriceSettings;
import dev.baton.providers.pricing.PriceTable;
import dev.baton.providers.resilience.BreakerToolSource;
import dev.baton.providers.resilience.ResilienceConfig;
import dev.baton.providers.resilience.ResilientModelResolver;
import dev.baton.providers.token.JtokkitTokenCounter;
import dev.baton.redis.SharedRedis;
import dev.baton.redis.SharedTurnSettings;
import dev.baton.redis.SharedTurns;
import dev.baton.runtime.Baton;
import dev.baton.runtime.BatonBuilder;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import dev.baton.server.api.AuditRoutes;
import dev.baton.server.api.CatalogRoutes;
import dev.baton.server.api.HealthRoutes;
import dev.baton.server.api.MessageRoutes;
import dev.baton.server.api.NoteRoutes;
import dev.baton.server.api.SessionRoutes;
import dev.baton.server.api.TaskRoutes;
import dev.baton.server.auth.JwtAuthenticator;
import dev.baton.server.auth.JwtSettings;
import dev.baton.server.config.BatonConfig;
import dev.baton.server.config.ProviderSettings;
import dev.baton.server.http.HttpApi;
import dev.baton.server.http.HttpSettings;
import dev.baton.server.metrics.BatonMetrics;
import dev.baton.server.metrics.BreakerMeters;
import dev.baton.server.metrics.HttpMetrics;
import dev.baton.server.metrics.MeteredModelResolver;
import dev.baton.server.metrics.MetricsRoutes;
import dev.baton.server.metrics.MetricsSettings;
import dev.baton.server.metrics.RefusalMeters;
import dev.baton.server.metrics.TurnMetrics;
import dev.baton.server.usage.UsageRoutes;
import dev.baton.server.web.WebPageRoutes;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.DatabaseSettings;
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
    /** The agents shipped on the class path, in the order they are offered (the domains' jars bring their own). */
    static final List<String> BUILT_IN_AGENTS = List.of("agents/tasks.yaml", "agents/study.yaml");

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
        String host = options.host();
        Clock clock = options.clock();
        Duration sseHeartbeat = options.sseHeartbeat();
        JwtAuthenticator auth = JwtAuthenticator.create(
                JwtSettings.parse(config.section("jwt"), config.env(), config.jwtSecret()), config.rolePermissions());

        Database db = Database.open(
                config.databaseUrl(), List.of(TaskModule.MIGRATIONS, NotesModule.MIGRATIONS), databaseSettings(config));
        Deque<AutoCloseable> opened = new ArrayDeque<>();
        opened.push(db);
        try {
            BatonMetrics metrics = opened(opened, BatonMetrics.create(metricsSettings(config)));
            LlmSimulator simulator = null;
            BreakerMeters breakerMeters = new BreakerMeters(metrics.registry());
            String simulatorUrl = options.simulatorBaseUrl();
            ProviderSettings providers = ProviderSettings.from(config);
            boolean simulatorOnly = config.models().simulatorOnly() && !providers.any();
            String defaultModel = providers.defaultModel(config.models());
            if (simulatorUrl == null && simulatorOnly) {
                simulator = opened(opened, LlmSimulator.start(TaskAgentScript.create()));
                log.warn(
                        "NO MODEL PROVIDER CONFIGURED: answering with the bundled LLM SIMULATOR at {} "
                                + "(set OPENAI_API_KEY, ANTHROPIC_API_KEY, AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_KEY, "
                                + "OLLAMA_BASE_URL, or OPENAI_BASE_URL for an OpenAI-compatible server, to use a real model)",
                        simulator.baseUrl());
                simulatorUrl = simulator.baseUrl();
            }
            ResilienceConfig resilience = resilience(config);
            // retries, first-token limits, per-provider breakers and agents' fallback models
            ModelResolver models = new ResilientModelResolver(
                            Models.resolver(config.models(), providers, simulatorUrl), resilience.models(), clock)
                    .withBreakerListener(breakerMeters);
            AgentRegistry agents = AgentRegistry.load(
                            BUILT_IN_AGENTS, config.agentDirs(), config.limits(), defaultModel)
                    .withDefault(defaultAgent(config));
            TaskModule tasks = TaskModule.create(db, clock);
            NotesModule notes = NotesModule.create(db, clock);
            PriceTable prices = prices(config);
            JdbcAuditStore auditStore = new JdbcAuditStore(db);
            JdbcUsageStore usage = new JdbcUsageStore(db);
            SharedRedis redis = sharedRedis(config, opened);
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
                    .modules(moduleRegistry(config, agents), auditStore)
                    .refusalListener(new RefusalMeters(metrics.registry()))
                    .observer(turnMetrics);
            Admission.configure(builder, config, clock, redis, opened);
            if (redis != null)
                builder.turnLocks(onCancel -> SharedTurns.connect(redis, sharedTurnSettings(config), onCancel));
            Baton baton = opened(opened, builder.build());
            turnMetrics.watching(baton.runningTurns());
            io.micrometer.core.instrument.Gauge.builder("baton.database.available", db, d -> d.available() ? 1 : 0)
                    .description("1 while the database's circuit breaker lets calls through, 0 while it is open")
                    .register(metrics.registry());
            io.micrometer.core.instrument.Gauge.builder("baton.usage.pending.rows", baton, b -> b.pendingUsageRows())
                    .description("usage rows of model calls kept in memory until the database takes them")
                    .register(metrics.registry());
            metrics.watch(baton.modules().failures());
            String modelMode = simulatorOnly ? "simulator" : defaultModel;
            HttpSettings http = httpSettings(config);
            Javalin app = HttpApi.create(
                    host,
                    config.port(),
                    http,
                    auth,
                    List.of(
                            new HealthRoutes(() -> db.isUp(HealthRoutes.DEADLINE), modelMode)::register,
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
                    "baton listening on http://{}:{} (accept queue {}, database {}, model {})",
                    host,
                    app.port(),
                    http.acceptQueue(),
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

    /** The modules on the class path, with baton.yaml's org defaults; every agent's module list checked now. */
    private static ModuleRegistry moduleRegistry(BatonConfig config, AgentRegistry agents) {
        try {
            ModuleRegistry registry =
                    ModuleRegistry.load(config.section("modules"), BatonServer.class.getClassLoader(), List.of());
            registry.validate(agents.all());
            return registry;
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ConfigException("modules: " + e.getMessage());
        }
    }

    /** The Redis that instances share (rate limits, budgets, turn locks), or null when none is configured. */
    private static SharedRedis sharedRedis(BatonConfig config, Deque<AutoCloseable> opened) {
        String url = Admission.redisUrl(config);
        return url == null ? null : opened(opened, SharedRedis.create(url));
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

    private static SharedTurnSettings sharedTurnSettings(BatonConfig config) {
        try {
            return SharedTurnSettings.parse(config.section("turns"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private static ResilienceConfig resilience(BatonConfig config) {
        try {
            return ResilienceConfig.from(config.section("resilience"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** {@code BATON_DEFAULT_AGENT}, else baton.yaml's {@code defaultAgent}; null for the first usable agent. */
    private static String defaultAgent(BatonConfig config) {
        String env = config.env().get("BATON_DEFAULT_AGENT");
        if (env != null && !env.isBlank()) return env;
        var node = config.section("defaultAgent");
        if (node.isMissingNode() || node.isNull()) return null;
        if (!node.isTextual()) throw new ConfigException("defaultAgent must be an agent id");
        return node.asText();
    }

    private static MetricsSettings metricsSettings(BatonConfig config) {
        try {
            return MetricsSettings.parse(config.section("metrics"), config.env());
        } catch (IllegalArgumentException e) {
            throw new ConfigException("metrics: " + e.getMessage());
        }
    }

    private static PriceTable prices(BatonConfig config) {
        try {
            return PriceSettings.parse(config.section("prices"));
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
