package dev.baton.providers.azure;

import dev.baton.providers.streaming.EndpointValidation;
import java.time.Duration;

/**
 * Where to reach an Azure OpenAI resource.
 *
 * @param endpoint the resource endpoint, e.g. {@code https://my-resource.openai.azure.com}
 * @param apiKey sent as the {@code api-key} header
 * @param apiVersion the {@code api-version} query parameter every call carries
 * @param defaultDeployment the deployment {@code azure:default} means; null when there is none
 * @param requestTimeout the upper bound for one call; a request's own timeout applies when it is shorter
 */
public record AzureOpenAiConfig(
        String endpoint, String apiKey, String apiVersion, String defaultDeployment, Duration requestTimeout) {

    /** The current GA version of the data-plane API; it streams usage ({@code stream_options}). */
    public static final String DEFAULT_API_VERSION = "2024-10-21";

    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

    public AzureOpenAiConfig {
        if (endpoint == null || endpoint.isBlank()) {
            throw new IllegalArgumentException("an Azure OpenAI endpoint is required");
        }
        endpoint = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
        EndpointValidation.requireHttpUrl(endpoint, "endpoint");
        if (apiKey == null || apiKey.isBlank()) {
            throw new IllegalArgumentException("an Azure OpenAI API key is required");
        }
        apiVersion = apiVersion == null || apiVersion.isBlank() ? DEFAULT_API_VERSION : apiVersion;
        defaultDeployment = defaultDeployment == null || defaultDeployment.isBlank() ? null : defaultDeployment;
        requestTimeout = EndpointValidation.requestTimeout(requestTimeout, DEFAULT_REQUEST_TIMEOUT);
    }

    public static AzureOpenAiConfig of(String endpoint, String apiKey) {
        return new AzureOpenAiConfig(endpoint, apiKey, null, null, null);
    }

    /** The base URL a deployment's {@code /chat/completions} hangs off. */
    String deploymentBaseUrl(String deployment) {
        return endpoint + "/openai/deployments/" + deployment;
    }

    /** Never prints the key: configs end up in logs. */
    @Override
    public String toString() {
        return "AzureOpenAiConfig[endpoint=" + endpoint + ", apiKey=***, apiVersion=" + apiVersion
                + ", defaultDeployment=" + defaultDeployment + ", requestTimeout=" + requestTimeout + "]";
    }
}
