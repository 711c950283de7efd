package dev.baton.providers.openai;

import dev.baton.providers.streaming.EndpointValidation;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Where and how to reach one endpoint that speaks OpenAI's Chat Completions protocol: OpenAI itself, or a
 * compatible server (Ollama's {@code /v1}, vLLM, LM Studio, OpenRouter, the Baton simulator).
 *
 * @param name the provider name the gateway reports and logs ("openai", "ollama", "simulator")
 * @param baseUrl the URL that {@code /chat/completions} is appended to, e.g. {@code https://api.openai.com/v1}
 * @param apiKey the bearer token; {@code null} sends no {@code Authorization} header (local servers)
 * @param requestTimeout the upper bound for one call; a request's own timeout applies when it is shorter
 * @param organization OpenAI's {@code OpenAI-Organization} header, or {@code null}
 * @param headers extra headers sent with every request (e.g. OpenRouter's {@code HTTP-Referer})
 */
public record OpenAiCompatibleConfig(
        String name,
        String baseUrl,
        String apiKey,
        Duration requestTimeout,
        String organization,
        Map<String, String> headers) {

    public static final String OPENAI_BASE_URL = "https://api.openai.com/v1";
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

    public OpenAiCompatibleConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name is required");
        }
        Objects.requireNonNull(baseUrl, "baseUrl");
        EndpointValidation.requireHttpUrl(baseUrl, "baseUrl");
        apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey;
        requestTimeout = EndpointValidation.requestTimeout(requestTimeout, DEFAULT_REQUEST_TIMEOUT);
        organization = organization == null || organization.isBlank() ? null : organization;
        headers = Map.copyOf(headers == null ? Map.of() : headers);
    }

    /** OpenAI's own API with the default timeout. */
    public static OpenAiCompatibleConfig openAi(String apiKey) {
        if (apiKey == null || apiKey.isBlank()) {
            throw new IllegalArgumentException("an OpenAI API key is required");
        }
        return new OpenAiCompatibleConfig("openai", OPENAI_BASE_URL, apiKey, null, null, null);
    }

    /** A compatible endpoint with the default timeout and no extra headers. */
    public static OpenAiCompatibleConfig compatible(String name, String baseUrl, String apiKey) {
        return new OpenAiCompatibleConfig(name, baseUrl, apiKey, null, null, null);
    }

    public OpenAiCompatibleConfig withRequestTimeout(Duration timeout) {
        return new OpenAiCompatibleConfig(name, baseUrl, apiKey, timeout, organization, headers);
    }

    /** Never prints the key: configs end up in logs. */
    @Override
    public String toString() {
        return "OpenAiCompatibleConfig[name=" + name + ", baseUrl=" + baseUrl + ", apiKey="
                + (apiKey == null ? "none" : "***") + ", requestTimeout=" + requestTimeout + ", organization="
                + organization + ", headers=" + headers.keySet() + "]";
    }
}
