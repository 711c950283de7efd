package dev.baton.eval;

import dev.baton.app.AppSettings;
import dev.baton.app.BatonApp;
import dev.baton.app.Models;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.runtime.Baton;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.simulator.BundledScript;
import dev.baton.simulator.LlmSimulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The runtime an eval runs against: the same one {@code baton serve} builds from the same configuration (agents,
 * tools, domain services, modules, admission), on a temporary SQLite database that is deleted afterwards. With no
 * model provider configured, the bundled LLM simulator answers over HTTP, as it does for {@code baton serve}.
 * Scenarios run through {@link Baton} directly: no HTTP listener, no tokens.
 */
public final class EvalRuntime implements AutoCloseable {

    private final Path directory;
    private final LlmSimulator simulator;
    private final BatonApp app;
    private final BatonConfig config;
    private final String model;
    private final ConfiguredModelResolver judges;

    private EvalRuntime(
            Path directory,
            LlmSimulator simulator,
            BatonApp app,
            BatonConfig config,
            String model,
            ConfiguredModelResolver judges) {
        this.directory = directory;
        this.simulator = simulator;
        this.app = app;
        this.config = config;
        this.model = model;
        this.judges = judges;
    }

    /**
     * Starts the runtime.
     *
     * @param file baton.yaml as read (may be empty)
     * @param env the environment the configuration is read with
     * @param agentId the agent the suite talks to
     * @param model the model that agent should use instead of its own; null keeps the agent's
     * @throws ConfigException when the configuration, the agent or the model cannot work
     */
    public static EvalRuntime start(
            ConfigFile file, Map<String, String> env, String agentId, String model, Clock clock) {
        Path directory = temporaryDirectory();
        LlmSimulator simulator = null;
        BatonApp app = null;
        try {
            Map<String, String> own = new HashMap<>(env);
            own.put("BATON_DB_URL", "jdbc:sqlite:" + directory.resolve("eval.db"));
            own.put("BATON_DATA_DIR", directory.toString());
            BatonConfig cfg = ConfigLoader.from(file, own);
            AppSettings settings = AppSettings.read(cfg, file);
            AgentRegistry configured = settings.agents();
            AgentDefinition agent = configured
                    .find(agentId)
                    .orElseThrow(() -> new ConfigException("no agent '" + agentId + "' (agents: "
                            + String.join(
                                    ", ",
                                    configured.all().stream()
                                            .map(AgentDefinition::id)
                                            .toList())
                            + ")"));
            if (model != null) settings = withModel(settings, agent, model);
            String simulatorUrl = null;
            if (settings.simulatorOnly()) {
                simulator = LlmSimulator.start(BundledScript.create(clock));
                simulatorUrl = simulator.baseUrl();
            }
            ConfiguredModelResolver judges = Models.resolver(cfg.models(), settings.providers(), simulatorUrl);
            app = BatonApp.start(
                    settings, BatonApp.Options.DEFAULTS.withClock(clock).withSimulatorBaseUrl(simulatorUrl));
            String used = settings.agents().find(agentId).orElseThrow().model();
            return new EvalRuntime(directory, simulator, app, cfg, used, judges);
        } catch (RuntimeException e) {
            closeQuietly(app);
            closeQuietly(simulator);
            deleteTree(directory);
            throw e;
        }
    }

    /** The runtime the scenarios run through. */
    public Baton baton() {
        return app.baton();
    }

    /** The model the suite's agent answers with ("simulator:default" on the simulator). */
    public String model() {
        return model;
    }

    /** True when the bundled simulator answers: the report then says the run proves the harness, not a model. */
    public boolean simulated() {
        return simulator != null;
    }

    /** A caller with {@code roles} and the permissions the configuration gives them. */
    public Principal user(String userId, List<String> roles) {
        Set<String> permissions = new HashSet<>();
        for (String role : roles) {
            Set<String> granted = config.rolePermissions().get(role);
            if (granted == null)
                throw new ConfigException("the suite's role '" + role + "' is not configured (roles: "
                        + String.join(", ", config.rolePermissions().keySet()) + ")");
            permissions.addAll(granted);
        }
        return new Principal(userId, "eval", "Eval user", null, Set.copyOf(roles), permissions, List.of());
    }

    /**
     * A judge for rubric expectations: {@code reference} ("openai:gpt-4o") resolved like an agent's model.
     *
     * @throws ConfigException when no configured provider serves it
     */
    public Judge judge(String reference) {
        try {
            return new ModelJudge(judges.resolve(reference), Duration.ofSeconds(60));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("--judge " + reference + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        closeQuietly(judges);
        closeQuietly(app);
        closeQuietly(simulator);
        deleteTree(directory);
    }

    /** The settings with {@code agent} answering with {@code model}. */
    private static AppSettings withModel(AppSettings s, AgentDefinition agent, String model) {
        AgentDefinition changed = agent.withModel(model, List.of());
        List<AgentDefinition> all = s.agents().all().stream()
                .map(a -> a.id().equals(agent.id()) ? changed : a)
                .toList();
        AgentRegistry agents = AgentRegistry.of(all).withDefault(s.config().defaultAgent());
        AppSettings changedSettings = s.withAgents(agents);
        // a model no configured provider serves fails here, naming the agent and what to set
        changedSettings.checkModels();
        return changedSettings;
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("baton-eval-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for the eval database", e);
        }
    }

    private static void deleteTree(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temporary directory left behind is not worth failing the run for
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) return;
        try {
            c.close();
        } catch (Exception e) {
            // closing is best effort: the run's result is already known
        }
    }
}
