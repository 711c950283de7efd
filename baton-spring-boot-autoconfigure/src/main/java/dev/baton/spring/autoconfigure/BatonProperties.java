package dev.baton.spring.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Baton's settings in a Spring Boot app ({@code baton.*} in application.yaml or the environment). Everything else
 * Baton reads — agents, limits, budgets, modules, MCP servers, the domains' sections — stays in baton.yaml, named by
 * {@code baton.config}; each property here overrides its baton.yaml or environment counterpart.
 *
 * @param config the baton.yaml to read; unset: {@code $BATON_CONFIG}, else ./baton.yaml when it exists, else none
 * @param database where Baton keeps its conversations
 * @param model the default model, e.g. {@code openai:gpt-4o-mini} ({@code BATON_MODEL})
 * @param defaultAgent the agent a session starts with when the client names none ({@code BATON_DEFAULT_AGENT})
 * @param openai an OpenAI or OpenAI-compatible server for {@code openai:*} models
 * @param simulatorBaseUrl an LLM simulator already running, answering {@code simulator:*} models (tests)
 * @param environment more variables Baton reads as if from the environment (e.g. {@code ANTHROPIC_API_KEY}), over
 *     the process's own
 * @param api Baton's HTTP API, served by the app
 * @param security how an authenticated Spring Security user becomes Baton's caller
 * @param jwt Baton's own bearer tokens, for an app without Spring Security
 * @param tracing turns traced through the app's OpenTelemetry, when it has one
 */
@ConfigurationProperties("baton")
public record BatonProperties(
        Path config,
        @DefaultValue Database database,
        String model,
        String defaultAgent,
        @DefaultValue OpenAi openai,
        String simulatorBaseUrl,
        Map<String, String> environment,
        @DefaultValue Api api,
        @DefaultValue Security security,
        @DefaultValue Jwt jwt,
        @DefaultValue Tracing tracing) {

    public BatonProperties {
        environment = environment == null ? Map.of() : Map.copyOf(environment);
    }

    /**
     * @param url a JDBC URL: {@code jdbc:sqlite:path} or {@code jdbc:postgresql://…} ({@code BATON_DB_URL}); Baton
     *     migrates its own tables there
     * @param useAppDataSource keep Baton's tables in the app's own {@code DataSource} (HikariCP on PostgreSQL) instead
     *     of {@code url}: Baton's migrations run after the app's, with their own Flyway history table
     *     ({@code baton_schema_history})
     */
    public record Database(
            String url, @DefaultValue("false") boolean useAppDataSource) {}

    /**
     * @param baseUrl the server's base URL, e.g. {@code http://localhost:11434/v1} ({@code OPENAI_BASE_URL})
     * @param apiKey its API key ({@code OPENAI_API_KEY})
     */
    public record OpenAi(String baseUrl, String apiKey) {}

    /**
     * @param enabled whether the app serves Baton's HTTP API (Spring MVC)
     * @param basePath the path the API's {@code /v1/...} routes are under, e.g. {@code /assistant}; empty for the root
     * @param maxBodyBytes the largest request body the API reads
     * @param streamTimeout how long an SSE answer may stay open
     * @param sseHeartbeat how long an SSE answer stays quiet before a {@code :keepalive} comment probes its client
     */
    public record Api(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("") String basePath,
            @DefaultValue("262144") int maxBodyBytes,
            @DefaultValue("10m") Duration streamTimeout,
            @DefaultValue("1s") Duration sseHeartbeat) {}

    /**
     * @param tenantClaim the token claim naming the caller's tenant; a caller without one is in tenant "default"
     * @param permissionPrefixes authority prefixes stripped to give a Baton permission ({@code SCOPE_sessions:write}
     *     gives {@code sessions:write}); authorities with {@code ROLE_} are roles, whose baton.yaml grants are added
     */
    public record Security(
            @DefaultValue("tenant") String tenantClaim,
            @DefaultValue("SCOPE_") List<String> permissionPrefixes) {
        public Security {
            permissionPrefixes = List.copyOf(permissionPrefixes == null ? List.of() : permissionPrefixes);
        }
    }

    /**
     * @param secret the HS256 secret Baton's own tokens are signed with ({@code BATON_JWT_SECRET}); used only when
     *     Spring Security is not on the class path
     */
    public record Jwt(String secret) {}

    /**
     * @param enabled trace turns ({@code invoke_agent}, {@code chat}, {@code execute_tool} spans) through the app's
     *     {@code OpenTelemetry} bean; without one there is no tracing whatever this says
     * @param captureContent put prompts, answers, tool arguments and results on the spans (opt-in: they are the
     *     users' words)
     */
    public record Tracing(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("false") boolean captureContent) {}

    /** The variables Baton reads from the environment, with these properties over {@code processEnvironment}. */
    public Map<String, String> environment(Map<String, String> processEnvironment) {
        Map<String, String> env = new LinkedHashMap<>(processEnvironment);
        env.putAll(environment);
        put(env, "BATON_DB_URL", database.url());
        put(env, "BATON_MODEL", model);
        put(env, "BATON_DEFAULT_AGENT", defaultAgent);
        put(env, "OPENAI_BASE_URL", openai.baseUrl());
        put(env, "OPENAI_API_KEY", openai.apiKey());
        put(env, "BATON_JWT_SECRET", jwt.secret());
        return env;
    }

    private static void put(Map<String, String> env, String name, String value) {
        if (value != null && !value.isBlank()) env.put(name, value);
    }
}
