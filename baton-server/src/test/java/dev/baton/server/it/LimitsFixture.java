package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.TokenMinter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;

/** Configurations and tokens for the rate limit, budget and usage tests. */
final class LimitsFixture {
    static final Set<String> CHAT =
            Set.of("tasks:read:self", "tasks:write:self", "sessions:read:self", "sessions:write:self");
    /** "admin" may read usage; "auditor" is an admin of another kind, who may not. */
    static final Map<String, Set<String>> ROLES = Map.of(
            "student", CHAT,
            "admin", union(CHAT, Set.of("admin:audit", "admin:usage")),
            "auditor", union(CHAT, Set.of("admin:audit")),
            // may follow any turn of its tenant, but not chat
            "observer", Set.of("sessions:read:self", "sessions:observe"));

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

    /** What {@code user} of {@code tenant} has spent, from the admin usage report of {@code server}. */
    static BigDecimal spentBy(TestServer server, String user, String tenant) {
        String admin = token("admin-" + tenant, tenant, "admin", Instant.now());
        ApiClient.Response report = server.api.get("/v1/admin/usage?groupBy=user", admin);
        assertThat(report.status()).as(report.raw()).isEqualTo(200);
        for (JsonNode g : report.body().path("groups")) {
            if (g.path("user").asText().equals(user)) return g.path("costUsd").decimalValue();
        }
        return BigDecimal.ZERO;
    }

    /** How many of the racing answers were admitted; every other one must be a 429 budget_exceeded. */
    static int admitted(List<Future<ApiClient.Response>> answers) throws Exception {
        int ok = 0;
        for (Future<ApiClient.Response> answer : answers) {
            ApiClient.Response r = answer.get();
            if (r.status() == 200) {
                ok++;
            } else {
                assertThat(r.status()).as(r.raw()).isEqualTo(429);
                assertThat(r.body().path("error").path("code").asText()).isEqualTo("budget_exceeded");
            }
        }
        return ok;
    }
}
