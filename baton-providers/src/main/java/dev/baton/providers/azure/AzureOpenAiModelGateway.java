package dev.baton.providers.azure;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.providers.openai.OpenAiCompatibleConfig;
import dev.baton.providers.openai.OpenAiModelGateway;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link ModelGateway} for one Azure OpenAI deployment: OpenAI's Chat Completions wire at
 * {@code {endpoint}/openai/deployments/{deployment}/chat/completions?api-version=...}, authenticated with an
 * {@code api-key} header instead of a bearer token.
 *
 * <p>It reuses {@link OpenAiModelGateway} with that URL, header and query parameter rather than LangChain4j's
 * {@code langchain4j-azure-open-ai}, which is built on the Azure SDK ({@code azure-ai-openai}, azure-core, its
 * own HTTP stack and Reactor): that would add a second HTTP client and JSON stack to every deployment, its
 * streams could not be aborted through the cancellable client the other adapters share (a cancelled turn would
 * keep the connection and the billing running), and its errors do not keep the {@code Retry-After} of a 429.
 * The wire is OpenAI's, so the OpenAI adapter's streaming, tool-schema and failure handling apply unchanged.
 */
public final class AzureOpenAiModelGateway implements ModelGateway, AutoCloseable {

    private final String deployment;
    private final OpenAiModelGateway openAi;

    public AzureOpenAiModelGateway(AzureOpenAiConfig config, String deployment) {
        this(config, deployment, Clock.systemUTC());
    }

    public AzureOpenAiModelGateway(AzureOpenAiConfig config, String deployment, Clock clock) {
        Objects.requireNonNull(config, "config");
        if (deployment == null || deployment.isBlank() || deployment.contains("/")) {
            throw new IllegalArgumentException("a deployment name without '/' is required, got " + deployment);
        }
        this.deployment = deployment;
        var wire = new OpenAiCompatibleConfig(
                "azure",
                config.deploymentBaseUrl(deployment),
                null,
                config.requestTimeout(),
                null,
                Map.of("api-key", config.apiKey()));
        this.openAi = new OpenAiModelGateway(wire, Map.of("api-version", config.apiVersion()), clock);
    }

    @Override
    public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
        return openAi.stream(request, onDelta);
    }

    @Override
    public String provider() {
        return "azure";
    }

    public String deployment() {
        return deployment;
    }

    @Override
    public void close() {
        openAi.close();
    }

    @Override
    public String toString() {
        return "AzureOpenAiModelGateway[deployment=" + deployment + ", " + openAi + "]";
    }
}
