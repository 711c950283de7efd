package dev.baton.providers.streaming;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import java.time.Duration;
import java.util.Objects;

/**
 * Hands a LangChain4j model the per-call client it must use (a {@link CancellableHttpClient}, possibly
 * decorated). The timeouts LangChain4j sets on the builder are recorded and ignored: the gateway enforces its
 * own deadline and cancellation on the call.
 */
public final class PerCallHttpClientBuilder implements HttpClientBuilder {

    private final HttpClient client;
    private Duration connectTimeout;
    private Duration readTimeout;

    public PerCallHttpClientBuilder(HttpClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    @Override
    public Duration connectTimeout() {
        return connectTimeout;
    }

    @Override
    public HttpClientBuilder connectTimeout(Duration timeout) {
        this.connectTimeout = timeout;
        return this;
    }

    @Override
    public Duration readTimeout() {
        return readTimeout;
    }

    @Override
    public HttpClientBuilder readTimeout(Duration timeout) {
        this.readTimeout = timeout;
        return this;
    }

    @Override
    public HttpClient build() {
        return client;
    }
}
