package dev.baton.providers.azure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.model.ModelGateway;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import dev.baton.simulator.WireProtocol;
import dev.baton.testkit.model.ModelGatewayContract;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The gateway contract for Azure OpenAI: OpenAI's wire on the deployment URL with an api-key header. */
class AzureOpenAiModelGatewayIT extends ModelGatewayContract {

    @Override
    protected ModelGateway gatewayOn(LlmSimulator simulator) {
        return new AzureOpenAiModelGateway(
                new AzureOpenAiConfig(simulator.rootUrl(), "az-test-key", "2024-10-21", null, Duration.ofSeconds(60)),
                "gpt4o-test");
    }

    @Test
    void calls_go_to_the_deployment_path_with_the_api_version_and_the_api_key_header() {
        var gateway = start(SimulatorScript.replyingWith("ok"));

        var reply = gateway.stream(ask("hello"), d -> {});

        assertThat(reply.text()).isEqualTo("ok");
        var recorded = simulator().awaitRequest(0, GENEROUS);
        assertThat(recorded.protocol()).isEqualTo(WireProtocol.OPENAI_CHAT);
        assertThat(recorded.path()).isEqualTo("/openai/deployments/gpt4o-test/chat/completions");
        assertThat(recorded.query()).contains("api-version=2024-10-21");
        assertThat(recorded.header("api-key")).contains("az-test-key");
        assertThat(recorded.header("Authorization")).isEmpty();
        assertThat(recorded.stream()).isTrue();
        assertThat(recorded.includeUsage()).isTrue();
        assertThat(gateway.provider()).isEqualTo("azure");
    }
}
