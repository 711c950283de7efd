package dev.baton.app;

import dev.baton.app.a2a.RemoteAgentSettings;
import dev.baton.app.a2a.RemoteAgentSource;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.core.hook.ModuleRegistry;
import dev.baton.core.model.ModelResolver;
import dev.baton.core.tool.ToolSource;
import dev.baton.domain.Domain;
import dev.baton.domain.DomainContext;
import dev.baton.domain.RunningDomain;
import dev.baton.domain.rest.RouteGroup;
import dev.baton.mcp.client.McpClients;
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
import dev.baton.runtime.admission.PendingModelCalls;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.runtime.delivery.DeliveredMessages;
import dev.baton.runtime.stream.TurnEventLogSettings;
import dev.baton.simulator.BundledScript;
import dev.baton.simulator.LlmSimulator;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.DatabaseSettings;
import dev.baton.store.jdbc.JdbcAuditStore;
import dev.baton.store.jdbc.JdbcConversationStore;
import dev.baton.store.jdbc.JdbcStores;
import dev.baton.store.jdbc.SqliteSearchIndex;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole Baton assembled from configuration, with no HTTP: the database and its stores, the models with their
 * retries, breakers and fallbacks, the MCP connections, the hook modules, the domains on the class path (their tools,
 * modules, routes and jobs), the shared Redis when one is configured, and the background jobs. {@code baton serve},
 * {@code baton eval} and {@code baton mcp-server} start from it, and so can a program of one's own:
 *
 * <pre>{@code
 * try (BatonApp app = BatonApp.fromConfig(Path.of("baton.yaml"), System.getenv())) {
 *     app.baton().conversations().send(...);
 * }
 * }</pre>
 *
 * With no model provider configured, the bundled LLM simulator answers and a warning says so. Closing it stops
 * everything it started, newest first.
 */
public final class BatonApp implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BatonApp.class);
    /** How often SQLite's full-text index takes the messages stored since (searches catch up by themselves too). */
    private static final Duration SEARCH_INDEX_EVERY = Duration.ofSeconds(1);

    /**
     * How to assemble beyond the configuration.
     *
     * @param simulatorBaseUrl an already running simulator for "simulator:*" models (tests); null starts the bundled
     *     one when no provider is configured
     * @param instrumentation metrics and traces the host adds
     * @param tools tool sources the host adds (a Spring app's {@code @BatonTool} beans), registered after the domains'
     *     and before the MCP servers': a name an earlier source took is never shadowed
     * @param dataSource the host's own connection pool (HikariCP on PostgreSQL, e.g. a Spring Boot app's) for Baton's
     *     tables instead of {@code database.url}: Baton's migrations keep their own Flyway history there
     *     ({@value #HOST_HISTORY_TABLE}), and the pool stays open when the app closes; null: Baton's own pool
     */
    public record Options(
            Clock clock,
            String simulatorBaseUrl,
            Instrumentation instrumentation,
            List<ToolSource> tools,
            DataSource dataSource) {
        public static final Options DEFAULTS = new Options(Clock.systemUTC(), null, Instrumentation.NONE);

        /** Where Baton's migrations are recorded in a host's database. */
        public static final String HOST_HISTORY_TABLE = "baton_schema_history";

        public Options {
            clock = clock == null ? Clock.systemUTC() : clock;
            instrumentation = instrumentation == null ? Instrumentation.NONE : instrumentation;
            tools = List.copyOf(tools == null ? List.of() : tools);
        }

        /** Options without tools or a pool of the host's own. */
        public Options(Clock clock, String simulatorBaseUrl, Instrumentation instrumentation) {
            this(clock, simulatorBaseUrl, instrumentation, List.of(), null);
        }

        public Options withClock(Clock newClock) {
            return new Options(newClock, simulatorBaseUrl, instrumentation, tools, dataSource);
        }

        public Options withSimulatorBaseUrl(String url) {
            return new Options(clock, url, instrumentation, tools, dataSource);
        }

        public Options withInstrumentation(Instrumentation newInstrumentation) {
            return new Options(clock, simulatorBaseUrl, newInstrumentation, tools, dataSource);
        }

        /** These options with the host's own tool sources (replacing any given before). */
        public Options withTools(List<ToolSource> hostTools) {
            return new Options(clock, simulatorBaseUrl, instrumentation, hostTools, dataSource);
        }

        /** These options with the host's pool for Baton's tables (see {@link #dataSource()}). */
        public Options withDataSource(DataSource hostPool) {
            return new Options(clock, simulatorBaseUrl, instrumentation, tools, hostPool);
        }
    }

    private final AppSettings settings;
    private final Baton baton;
    private final Database database;
    private final ResilientModelResolver models;
    private final McpClients mcp;
    private final JdbcAuditStore audit;
    private final List<RunningDomain> domains;
    private final boolean simulated;
    /** What the app opened, closed in reverse order. */
    private final OpenedResources opened;

    private final DeliveredMessages deliveries;

    private BatonApp(
            AppSettings settings,
            Baton baton,
            Database database,
            ResilientModelResolver models,
            McpClients mcp,
            JdbcAuditStore audit,
            List<RunningDomain> domains,
            boolean simulated,
            OpenedResources opened,
            DeliveredMessages deliveries) {
        this.settings = settings;
        this.baton = baton;
        this.database = database;
        this.models = models;
        this.mcp = mcp;
        this.audit = audit;
        this.domains = List.copyOf(domains);
        this.simulated = simulated;
        this.opened = opened;
        this.deliveries = deliveries;
    }

    /**
     * Assembles a Baton from baton.yaml (null: ./baton.yaml or {@code $BATON_CONFIG}, absent is fine) and {@code env}.
     *
     * @throws ConfigException naming the file, the line and the setting when the configuration cannot work
     */
    public static BatonApp fromConfig(Path file, Map<String, String> env) {
        ConfigFile read = ConfigLoader.read(file, env);
        return start(AppSettings.read(ConfigLoader.from(read, env), read), Options.DEFAULTS);
    }

    /** Assembles a Baton from settings already read and checked (see {@link AppSettings#read}). */
    public static BatonApp start(AppSettings settings, Options options) {
        BatonConfig config = settings.config();
        Clock clock = options.clock();
        Instrumentation instrumentation = options.instrumentation();
        OpenedResources opened = new OpenedResources();
        try {
            String simulatorUrl = options.simulatorBaseUrl();
            boolean simulated = false;
            if (simulatorUrl == null && settings.simulatorOnly()) {
                simulatorUrl = opened.add(bundledSimulator(clock)).baseUrl();
                simulated = true;
            }
            ConfiguredModelResolver configured =
                    opened.add(Models.resolver(config.models(), settings.providers(), simulatorUrl));
            // before the database opens: a model no provider serves is a configuration error, found first
            settings.checkModels(configured).forEach(w -> log.warn("configuration: {}", w));

            Database db = opened.add(openDatabase(settings, options.dataSource()));
            // SQLite's full-text index is filled in batches, so that a message's commit does not write it
            opened.add(SqliteSearchIndex.start(db, SEARCH_INDEX_EVERY));
            ResilienceConfig resilience = settings.resilience();
            // retries, first-token limits, per-provider breakers and agents' fallback models
            ResilientModelResolver resilient = new ResilientModelResolver(configured, resilience.models(), clock)
                    .withBreakerListener(instrumentation.breakers());
            // every model an agent uses, resolved now (they were checked): health shows each provider's breaker
            AgentRegistry agents = settings.agents();
            agents.all().forEach(a -> resilient.resolve(a.model()));
            PriceTable prices = settings.prices();
            ModelResolver models = instrumentation.models(resilient, prices);
            JdbcStores stores = JdbcStores.of(db);
            JdbcConversationStore conversations = stores.conversations();

            List<RunningDomain> running = new ArrayList<>();
            // domains call models only through the runtime's admission, which exists once the runtime is built
            PendingModelCalls modelCalls = new PendingModelCalls();
            // what a domain's background job prepared reaches the session that asked for it through the runtime
            DeliveredMessages deliveries = new DeliveredMessages(conversations, clock);
            for (Domain domain : settings.domains().all()) {
                DomainContext context = new DomainContext(
                        db,
                        clock,
                        settings.domainSettings().get(domain.name()),
                        modelCalls,
                        agents,
                        conversations,
                        prices,
                        deliveries);
                running.add(opened.add(domain.start(context)));
            }
            ModuleRegistry modules = AppSettings.modules(
                    config, running.stream().flatMap(d -> d.modules().stream()).toList());
            modules.validate(agents.all());

            McpClients mcp = opened.add(McpWiring.start(config, db, clock));
            McpWiring.checkAttachedResources(agents, mcp);
            JdbcAuditStore audit = stores.audit();
            SharedRedis redis = sharedRedis(settings, opened);
            BatonBuilder builder = stores.applyTo(Baton.builder())
                    .clock(clock)
                    .configure(config.raw())
                    .models(models)
                    .tokenCounter(new JtokkitTokenCounter())
                    .prices(prices)
                    .agents(agents)
                    .tools(running.stream()
                            .flatMap(d -> d.toolSources().stream())
                            .toArray(ToolSource[]::new))
                    // after the domains' tools: a name taken by an earlier source can never be shadowed
                    .tools(options.tools().toArray(ToolSource[]::new))
                    .tools(mcp.toolSources().toArray(ToolSource[]::new))
                    .resources(mcp.resources())
                    .tools(RemoteAgentSource.of(RemoteAgentSettings.parse(config.section("a2a"), config.env()))
                            .toArray(ToolSource[]::new))
                    .toolGuard(sources ->
                            BreakerToolSource.guard(sources, resilience.tools(), clock, instrumentation.breakers()))
                    .modules(modules, audit)
                    .environment(config.env());
            Admission.configure(builder, settings, clock, redis, opened);
            if (redis != null) {
                builder.turnLocks(SharedTurns.connector(redis, settings.turns()));
                builder.turnEventLog(opened.add(RedisTurnEventLog.connect(redis, streamSettings(config))));
            }
            instrumentation.configure(builder);
            Baton baton = opened.add(builder.build());
            modelCalls.bind(baton.modelCalls());
            deliveries.bind(baton.runningTurns());
            BatonApp app =
                    new BatonApp(settings, baton, db, resilient, mcp, audit, running, simulated, opened, deliveries);
            instrumentation.started(app);
            baton.startBackgroundJobs();
            for (RunningDomain domain : running) opened.add(domain.startBackgroundJobs());
            log.info(
                    "baton assembled: database {}, model {}, domains {}",
                    db.dialect(),
                    app.modelMode(),
                    settings.domains().names());
            return app;
        } catch (RuntimeException e) {
            opened.close();
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

    /**
     * The database, migrated for the runtime and the domains, on the host's pool when it gives one; one that cannot be
     * opened is named.
     */
    private static Database openDatabase(AppSettings settings, DataSource hostPool) {
        BatonConfig config = settings.config();
        DatabaseSettings databaseSettings;
        try {
            databaseSettings = DatabaseSettings.from(config.section("database"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        if (hostPool != null) {
            try {
                return Database.on(
                        hostPool, settings.domains().migrations(), databaseSettings, Options.HOST_HISTORY_TABLE);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage(), e);
            }
        }
        try {
            return Database.open(config.databaseUrl(), settings.domains().migrations(), databaseSettings);
        } catch (RuntimeException e) {
            throw DatabaseUnavailableException.of(config.databaseUrl(), e);
        }
    }

    private static TurnEventLogSettings streamSettings(BatonConfig config) {
        try {
            return TurnEventLogSettings.from(config.section("streams"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** The Redis that instances share (rate limits, budgets, turn locks), or null when none is configured. */
    private static SharedRedis sharedRedis(AppSettings settings, OpenedResources opened) {
        String url = settings.rateLimits().redisUrl();
        return url == null ? null : opened.add(SharedRedis.create(url));
    }

    /** The runtime every front door calls. */
    /** Messages background jobs put into sessions, and who hears of them in this process. */
    public DeliveredMessages deliveries() {
        return deliveries;
    }

    public Baton baton() {
        return baton;
    }

    /** What the app was assembled from. */
    public AppSettings settings() {
        return settings;
    }

    /** The database (health checks, gauges). */
    public Database database() {
        return database;
    }

    /** The models with their breakers, for health reports. */
    public ResilientModelResolver models() {
        return models;
    }

    /** The MCP connections (status, pins). */
    public McpClients mcp() {
        return mcp;
    }

    /** The audit trail. */
    public JdbcAuditStore audit() {
        return audit;
    }

    /** Every started domain's REST routes, in the domains' order. */
    public List<RouteGroup> routes() {
        return domains.stream().flatMap(d -> d.routes().stream()).toList();
    }

    /** A started domain's service by type (a design's own API translating onto it); empty when none has one. */
    public <T> Optional<T> service(Class<T> type) {
        return domains.stream()
                .map(d -> d.service(type))
                .flatMap(Optional::stream)
                .findFirst();
    }

    /** True when the bundled simulator answers instead of a real model. */
    public boolean simulated() {
        return simulated;
    }

    /** "simulator" when no provider is configured, else the default model. */
    public String modelMode() {
        return settings.simulatorOnly() ? "simulator" : settings.defaultModel();
    }

    @Override
    public void close() {
        opened.close();
    }
}
