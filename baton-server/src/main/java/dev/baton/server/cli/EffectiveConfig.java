package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ModelSettings;
import dev.baton.app.config.ProviderSettings;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.TurnLimits;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.server.app.ServerSettings;
import dev.baton.server.auth.DevSecret;
import dev.baton.server.auth.JwtSettings;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The configuration a server would run with, one setting a line, with where its value comes from: an environment
 * variable, a line of baton.yaml, or the default. Secrets show only that they are set.
 */
final class EffectiveConfig {

    /** Keys whose values are secrets wherever they appear ({@code historyTokens} is not one). */
    private static final Pattern SECRET_KEY = Pattern.compile("(?i)(.*api[-_]?key|.*secret|token|.*password)");
    /** The password of a database URL ({@code user:pass@host} or {@code password=...}). */
    private static final Pattern URL_PASSWORD = Pattern.compile("(?i)(password=)[^&;]*|(//[^:/@]+:)[^@]*(@)");

    private final ConfigFile file;
    private final BatonConfig config;
    private final ServerSettings settings;
    private final Map<String, String> env;
    private final List<String> warnings;
    private final List<String[]> rows = new ArrayList<>();
    /** The baton.yaml keys shown above, so that the rest of the file can be listed after them. */
    private final Set<String> shown = new HashSet<>();

    EffectiveConfig(ConfigFile file, BatonConfig config, ServerSettings settings, List<String> warnings) {
        this.warnings = List.copyOf(warnings);
        this.file = file;
        this.config = config;
        this.settings = settings;
        this.env = config.env();
    }

    void print(PrintStream out) {
        collect();
        int width = rows.stream().mapToInt(r -> r[0].length()).max().orElse(10);
        int valueWidth =
                Math.min(48, rows.stream().mapToInt(r -> r[1].length()).max().orElse(10));
        out.println("Effective configuration (" + file.source() + " and the environment):");
        for (String[] r : rows) {
            out.println("  " + pad(r[0], width) + "  " + pad(r[1], valueWidth) + "  " + r[2]);
        }
        out.println();
        String defaultAgent = config.defaultAgent();
        out.println("Agents, in the order they are offered (default: "
                + (defaultAgent == null ? "the first one the caller may use" : defaultAgent) + "):");
        for (AgentDefinition a : settings.agents().all()) {
            out.println("  " + a.id() + "  model " + a.model()
                    + (a.fallbackModels().isEmpty() ? "" : ", then " + String.join(", ", a.fallbackModels())));
        }
        out.println();
        out.println("Domains, found on the class path, in their order: "
                + String.join(", ", settings.app().domains().names()));
        if (!warnings.isEmpty()) {
            out.println();
            out.println("Warnings:");
            warnings.forEach(w -> out.println("  " + w));
        }
    }

    private void collect() {
        setting("server.host", "BATON_HOST", config.host());
        setting("server.port", "BATON_PORT", Integer.toString(config.port()));
        setting("server.maxBodyBytes", null, Integer.toString(config.maxBodyBytes()));
        setting("server.dataDir", "BATON_DATA_DIR", config.dataDir().toString());
        setting(
                "database.url",
                "BATON_DB_URL",
                URL_PASSWORD.matcher(config.databaseUrl()).replaceAll("$1$2***$3"));
        if (config.jwtSecret() != null) {
            secret("auth.jwtSecret", "BATON_JWT_SECRET", true);
        } else {
            row("auth.jwtSecret", "(none)", "serve signs tokens with " + DevSecret.file(config.dataDir()));
            shown.add("auth.jwtSecret");
        }
        JwtSettings jwt = settings.jwt();
        setting(
                "jwt.jwksUrl",
                "BATON_JWT_JWKS_URL",
                jwt.jwksUrl() == null ? "(none)" : jwt.jwksUrl().toString());
        setting("jwt.issuer", "BATON_JWT_ISSUER", jwt.issuer() == null ? "(not checked)" : jwt.issuer());
        setting("jwt.audience", "BATON_JWT_AUDIENCE", jwt.audience() == null ? "(not checked)" : jwt.audience());
        setting("jwt.clockSkew", "BATON_JWT_CLOCK_SKEW", duration(jwt.clockSkew()));

        setting(
                "models.default",
                "BATON_MODEL",
                settings.simulatorOnly()
                        ? settings.defaultModel() + " (no provider configured)"
                        : settings.defaultModel());
        secret("models.openai.apiKey", "OPENAI_API_KEY", config.models().openAiApiKey() != null);
        setting(
                "models.openai.baseUrl",
                "OPENAI_BASE_URL",
                config.models().openAiBaseUrl() == null
                        ? "(OpenAI's)"
                        : config.models().openAiBaseUrl());
        setting(
                "models.requestTimeout",
                ModelSettings.TIMEOUT_VARIABLE,
                config.models().requestTimeout() == null
                        ? "(each provider's: 60s, Ollama 120s)"
                        : duration(config.models().requestTimeout()));
        config.models()
                .compatible()
                .forEach((name, e) -> setting("models.compatible." + name + ".baseUrl", null, e.baseUrl()));
        ProviderSettings p = settings.providers();
        secret("models.anthropic.apiKey", "ANTHROPIC_API_KEY", p.anthropic() != null);
        if (p.anthropic() != null)
            setting(
                    "models.anthropic.baseUrl",
                    "ANTHROPIC_BASE_URL",
                    p.anthropic().baseUrl() == null
                            ? "(Anthropic's)"
                            : p.anthropic().baseUrl());
        setting(
                "models.ollama.baseUrl",
                "OLLAMA_BASE_URL",
                p.ollama() == null
                        ? "(not configured)"
                        : p.ollama().baseUrl() == null
                                ? "http://localhost:11434"
                                : p.ollama().baseUrl());
        setting(
                "models.azure.endpoint",
                "AZURE_OPENAI_ENDPOINT",
                p.azure() == null ? "(not configured)" : p.azure().endpoint());
        if (p.azure() != null) {
            secret("models.azure.apiKey", "AZURE_OPENAI_API_KEY", true);
            setting(
                    "models.azure.deployment",
                    "AZURE_OPENAI_DEPLOYMENT",
                    String.valueOf(p.azure().deployment()));
        }

        setting(
                "agents.dirs",
                "BATON_AGENTS_DIR",
                config.agentDirs().isEmpty()
                        ? "(built-in agents only)"
                        : config.agentDirs().stream().map(Object::toString).collect(Collectors.joining(", ")));
        String defaultAgent = config.defaultAgent();
        setting(
                "defaultAgent",
                "BATON_DEFAULT_AGENT",
                defaultAgent == null ? "(the first the caller may use)" : defaultAgent);
        setting(
                "metrics.enabled",
                "BATON_METRICS_ENABLED",
                Boolean.toString(settings.metrics().enabled()));
        secret("metrics.token", "BATON_METRICS_TOKEN", settings.metrics().token() != null);
        String redis = settings.rateLimits().redisUrl();
        setting(
                "rateLimits.redisUrl",
                "BATON_REDIS_URL",
                redis == null
                        ? "(none: limits in this process)"
                        : URL_PASSWORD.matcher(redis).replaceAll("$1$2***$3"));

        TurnLimits l = config.limits();
        setting("limits.maxIterations", null, Integer.toString(l.maxIterations()));
        setting("limits.maxToolCallsPerTurn", null, Integer.toString(l.maxToolCallsPerTurn()));
        setting("limits.historyMessages", null, Integer.toString(l.historyMessages()));
        setting("limits.llmTimeout", null, duration(l.llmTimeout()));
        setting("limits.requestTimeout", null, duration(l.requestTimeout()));

        // everything else the file sets, as written
        leaves(file.root(), "", new ArrayList<>());
    }

    private void leaves(JsonNode node, String path, List<String> keys) {
        if (node.isObject()) {
            node.properties().forEach(e -> {
                List<String> next = new ArrayList<>(keys);
                next.add(e.getKey());
                leaves(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), next);
            });
            return;
        }
        if (shown.contains(path) || keys.isEmpty()) return;
        String value = node.isNull() ? "(empty)" : node.isValueNode() ? node.asText() : node.toString();
        if (SECRET_KEY.matcher(keys.get(keys.size() - 1)).matches() && !node.isNull()) value = "*** (set)";
        if (value.length() > 60) value = value.substring(0, 57) + "...";
        row(path, value, where(keys.toArray(String[]::new)));
    }

    private void setting(String key, String variable, String value) {
        shown.add(key);
        row(key, value, origin(key, variable));
    }

    private void secret(String key, String variable, boolean set) {
        shown.add(key);
        row(key, set ? "*** (set)" : "(none)", set ? origin(key, variable) : "");
    }

    private String origin(String key, String variable) {
        if (variable != null) {
            String v = env.get(variable);
            if (v != null && !v.isBlank()) return "env " + variable;
        }
        String where = where(key.split("\\."));
        return where.isEmpty() ? "default" : where;
    }

    private String where(String... path) {
        OptionalInt line = file.line(path);
        return line.isPresent() ? file.source() + ":" + line.getAsInt() : "";
    }

    private void row(String key, String value, String origin) {
        rows.add(new String[] {key, value, origin});
    }

    /** As the configuration writes it: 30s, 5m, 250ms. */
    static String duration(java.time.Duration d) {
        if (d.isZero()) return "0s";
        if (d.toMillisPart() != 0 || d.toNanosPart() % 1_000_000 != 0) return d.toMillis() + "ms";
        long s = d.toSeconds();
        if (s % 86_400 == 0) return s / 86_400 + "d";
        if (s % 3600 == 0) return s / 3600 + "h";
        if (s % 60 == 0) return s / 60 + "m";
        return s + "s";
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
