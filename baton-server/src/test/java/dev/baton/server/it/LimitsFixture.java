package dev.baton.server.it;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.TurnLimits;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.TokenMinter;
import dev.baton.server.config.BatonConfig;
import dev.baton.server.config.ConfigLoader;
import dev.baton.server.config.ModelSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Configurations and tokens for the rate limit, budget and usage tests. */
final class LimitsFixture {
    static final Set<String> CHAT =
            Set.of("tasks:read:self", "tasks:write:self", "sessions:read:self", "sessions:write:self");
    /** "admin" may read usage; "auditor" is an admin of another kind, who may not. */
    static final Map<String, Set<String>> ROLES = Map.of(
            "student", CHAT,
            "admin", union(CHAT, Set.of("admin:audit", "admin:usage")),
            "auditor", union(CHAT, Set.of("admin:audit")));

    private LimitsFixture() {}

    /** A configuration with these baton.yaml sections (YAML text) on the simulator's default model. */
    static BatonConfig config(String databaseUrl, String yaml, Map<String, String> env) {
        JsonNode raw;
        try {
            raw = ConfigLoader.yamlMapper().readTree(yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new BatonConfig(
                0,
                databaseUrl,
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                ROLES,
                List.of(),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                raw,
                env);
    }

    /** A token of {@code user} in {@code tenant} with one role. */
    static String token(String user, String tenant, String role, Instant now) {
        return new TokenMinter(JwtSecret.of(TestServer.SECRET))
                .mint(
                        new TokenMinter.Claims(user, null, null, List.of(role), tenant, List.of()),
                        now,
                        Duration.ofHours(1));
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        var all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
