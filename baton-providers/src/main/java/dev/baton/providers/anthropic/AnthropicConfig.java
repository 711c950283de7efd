package dev.baton.providers.anthropic;

import dev.baton.providers.streaming.EndpointValidation;
import java.time.Duration;
import java.util.Map;

/**
 * Where and how to reach Anthropic's Messages API.
 *
 * @param name the provider name the gateway reports and logs, normally "anthropic"
 * @param baseUrl the URL that {@code /messages} is appended to, e.g. {@code https://api.anthropic.com/v1}
 * @param apiKey sent as {@code x-api-key}; required (Anthropic's client refuses to send without one)
 * @param version the {@code anthropic-version} header
 * @param maxTokens Anthropic requires an output limit on every request; this is it
 * @param requestTimeout the upper bound for one call; a request's own timeout applies when it is shorter
 * @param headers extra headers sent with every request (e.g. {@code anthropic-beta})
 */
public record AnthropicConfig(
        String name,
        String baseUrl,
        String apiKey,
        String version,
        int maxTokens,
        Duration requestTimeout,
        Map<String, String> headers) {

    public static final String ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1";
    public static final String DEFAULT_VERSION = "2023-06-01";
    public static final int DEFAULT_MAX_TOKENS = 4096;
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

    public AnthropicConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name is required");
        }
        baseUrl = baseUrl == null || baseUrl.isBlank() ? ANTHROPIC_BASE_URL : baseUrl;
        EndpointValidation.requireHttpUrl(baseUrl, "baseUrl");
        if (apiKey == null || apiKey.isBlank()) {
            throw new IllegalArgumentException("an Anthropic API key is required");
        }
        version = version == null || version.isBlank() ? DEFAULT_VERSION : version;
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be positive");
        }
        requestTimeout = EndpointValidation.requestTimeout(requestTimeout, DEFAULT_REQUEST_TIMEOUT);
        headers = Map.copyOf(headers == null ? Map.of() : headers);
    }

    /** Anthropic's own API with default version, output limit and timeout. */
    public static AnthropicConfig anthropic(String apiKey) {
        return of(ANTHROPIC_BASE_URL, apiKey);
    }

    /** Anthropic's wire at {@code baseUrl} (a proxy, a gateway, the simulator) with the defaults. */
    public static AnthropicConfig of(String baseUrl, String apiKey) {
        return new AnthropicConfig("anthropic", baseUrl, apiKey, null, DEFAULT_MAX_TOKENS, null, null);
    }

    public AnthropicConfig withRequestTimeout(Duration timeout) {
        return new AnthropicConfig(name, baseUrl, apiKey, version, maxTokens, timeout, headers);
    }

    /** Never prints the key: configs end up in logs. */
    @Override
    public String toString() {
        return "AnthropicConfig[name=" + name + ", baseUrl=" + baseUrl + ", apiKey=***, version=" + version
                + ", maxTokens=" + maxTokens + ", requestTimeout=" + requestTimeout + ", headers="
                + headers.keySet() + "]";
    }
}
