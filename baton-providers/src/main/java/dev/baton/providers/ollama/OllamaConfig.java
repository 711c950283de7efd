package dev.baton.providers.ollama;

import dev.baton.providers.streaming.EndpointValidation;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * Where to reach an Ollama server's native API.
 *
 * @param name the provider name the gateway reports and logs, normally "ollama"
 * @param baseUrl the server root that {@code /api/chat} is appended to, e.g. {@code http://localhost:11434}
 * @param requestTimeout the upper bound for one call; a request's own timeout applies when it is shorter
 * @param headers extra headers sent with every request (e.g. an {@code Authorization} for a proxy in front)
 */
public record OllamaConfig(String name, String baseUrl, Duration requestTimeout, Map<String, String> headers) {

    public static final String DEFAULT_BASE_URL = "http://localhost:11434";
    /** Local models load on first use, which can take a while. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(120);

    public OllamaConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name is required");
        }
        baseUrl = baseUrl == null || baseUrl.isBlank() ? DEFAULT_BASE_URL : stripSlash(baseUrl);
        EndpointValidation.requireHttpUrl(baseUrl, "baseUrl");
        requestTimeout = EndpointValidation.requestTimeout(requestTimeout, DEFAULT_REQUEST_TIMEOUT);
        headers = Map.copyOf(headers == null ? Map.of() : headers);
    }

    /** An Ollama server at {@code baseUrl} (null: {@value #DEFAULT_BASE_URL}) with the default timeout. */
    public static OllamaConfig of(String baseUrl) {
        return new OllamaConfig("ollama", baseUrl, null, null);
    }

    /** The chat endpoint. */
    URI chatUri() {
        return URI.create(baseUrl + "/api/chat");
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    @Override
    public String toString() {
        return "OllamaConfig[name=" + name + ", baseUrl=" + baseUrl + ", requestTimeout=" + requestTimeout
                + ", headers=" + headers.keySet() + "]";
    }
}
