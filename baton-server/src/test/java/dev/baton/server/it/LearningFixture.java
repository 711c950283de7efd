package dev.baton.server.it;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A server whose roles carry the learning permissions: learners, a teacher who grades, and an admin. */
final class LearningFixture {
    static final Set<String> LEARNER = Set.of(
            "sessions:read:self",
            "sessions:write:self",
            "learning:read:self",
            "learning:write:self",
            // the orchestrator's and the todo chatbot's APIs answer with the task agent
            "tasks:read:self",
            "tasks:write:self");
    static final Map<String, Set<String>> ROLES = Map.of(
            "student",
            LEARNER,
            "teacher",
            union(LEARNER, Set.of("learning:grade")),
            "admin",
            union(LEARNER, Set.of("admin:learning", "admin:audit")),
            // signed in, but with no learning permission at all
            "guest",
            Set.of("sessions:read:self", "sessions:write:self"));

    private LearningFixture() {}

    /** A server over SQLite in {@code dir} with baton.yaml {@code raw} (may be null), answering with {@code script}. */
    static TestServer start(Path dir, SimulatorScript script, JsonNode raw, Clock clock) {
        return start(TestServer.sqliteUrl(dir), script, raw, clock);
    }

    /** A server over {@code databaseUrl} with baton.yaml {@code raw} (may be null), answering with {@code script}. */
    static TestServer start(String databaseUrl, SimulatorScript script, JsonNode raw, Clock clock) {
        BatonConfig config = new BatonConfig(
                0,
                databaseUrl,
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                ROLES,
                List.of(),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                raw,
                Map.of());
        return TestServer.start(config, LlmSimulator.start(script), true, clock);
    }

    static TestServer start(Path dir, SimulatorScript script) {
        return start(dir, script, null, Clock.systemUTC());
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        var all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
