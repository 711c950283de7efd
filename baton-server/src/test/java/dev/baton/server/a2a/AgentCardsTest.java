package dev.baton.server.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.tool.ToolCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentCardsTest {
    static final AgentDefinition AGENT = AgentDefinition.of("helper", "You help.", "default", List.of());

    @Test
    void a_card_names_the_json_rpc_endpoint_and_bearer_jwt() {
        ObjectNode card = new AgentCards(ToolCatalog.empty(), null).card(AGENT, "https://b.example");

        assertThat(card.at("/supportedInterfaces/0/url").asText()).isEqualTo("https://b.example/v1/a2a/helper");
        assertThat(card.at("/supportedInterfaces/0/protocolVersion").asText()).isEqualTo("1.0");
        assertThat(card.at("/securitySchemes/bearer/httpAuthSecurityScheme/bearerFormat")
                        .asText())
                .isEqualTo("JWT");
        assertThat(card.path("securityRequirements")).hasSize(1);
        assertThat(card.at("/skills/0/id").asText()).isEqualTo("helper");
        assertThat(card.at("/capabilities/streaming").asBoolean()).isTrue();
    }

    @Test
    void with_an_identity_provider_the_card_names_its_openid_configuration() {
        ObjectNode card =
                new AgentCards(ToolCatalog.empty(), "https://idp.example.org/").card(AGENT, "https://b.example");

        assertThat(card.at("/securitySchemes/oidc/openIdConnectSecurityScheme/openIdConnectUrl")
                        .asText())
                .isEqualTo("https://idp.example.org/.well-known/openid-configuration");
        assertThat(card.path("securityRequirements")).hasSize(2);
    }
}
