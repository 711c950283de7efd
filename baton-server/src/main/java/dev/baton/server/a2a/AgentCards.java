package dev.baton.server.a2a;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.server.http.Json;
import java.util.Optional;

/**
 * The Agent Card of an agent the deployment exposes (A2A 1.0): its name and description, one skill for the agent
 * itself and one per tool its allow-list admits, the JSON-RPC interface, and Bearer JWT as the one security scheme.
 * A card is public: it says what the agent is and what it can do, never anything of a user.
 */
final class AgentCards {
    static final String SCHEME = "bearer";
    private static final String VERSION = Optional.ofNullable(
                    AgentCards.class.getPackage().getImplementationVersion())
            .orElse("dev");

    static final String OIDC_SCHEME = "oidc";

    private final ToolCatalog tools;
    /** The identity provider's issuer when tokens come from one (JWKS); null when Baton signs them itself. */
    private final String oidcIssuer;

    /** @param oidcIssuer the issuer whose OpenID configuration a client may sign in with; null for none */
    AgentCards(ToolCatalog tools, String oidcIssuer) {
        this.tools = tools;
        this.oidcIssuer = oidcIssuer == null ? null : oidcIssuer.replaceAll("/+$", "");
    }

    /** The path of an agent's JSON-RPC endpoint. */
    static String endpointPath(String agentId) {
        return "/v1/a2a/" + agentId;
    }

    /** The card of {@code agent} whose URLs start with {@code baseUrl}. */
    ObjectNode card(AgentDefinition agent, String baseUrl) {
        ObjectNode card = Json.MAPPER
                .createObjectNode()
                .put("name", agent.name())
                .put("description", describe(agent))
                .put("version", VERSION);
        card.putArray("supportedInterfaces")
                .addObject()
                .put("url", baseUrl + endpointPath(agent.id()))
                .put("protocolBinding", "JSONRPC")
                .put("protocolVersion", A2aWire.PROTOCOL_VERSION);
        card.putObject("provider").put("organization", "Baton").put("url", baseUrl);
        card.putObject("capabilities").put("streaming", true).put("pushNotifications", false);
        card.putObject("securitySchemes")
                .putObject(SCHEME)
                .putObject("httpAuthSecurityScheme")
                .put("scheme", "Bearer")
                .put("bearerFormat", "JWT")
                .put("description", "A JWT whose subject is the user the agent acts for");
        ArrayNode requirements = card.putArray("securityRequirements");
        requirements.addObject().putObject("schemes").putObject(SCHEME).putArray("list");
        if (oidcIssuer != null) {
            // the same bearer token, and where a client gets one: either requirement admits the caller
            ((ObjectNode) card.path("securitySchemes"))
                    .putObject(OIDC_SCHEME)
                    .putObject("openIdConnectSecurityScheme")
                    .put("openIdConnectUrl", oidcIssuer + "/.well-known/openid-configuration")
                    .put("description", "Sign in with the identity provider whose tokens Baton accepts");
            requirements.addObject().putObject("schemes").putObject(OIDC_SCHEME).putArray("list");
        }
        card.putArray("defaultInputModes").add("text/plain").add("application/json");
        card.putArray("defaultOutputModes").add("text/plain").add("application/json");
        ArrayNode skills = card.putArray("skills");
        ObjectNode chat = skills.addObject()
                .put("id", agent.id())
                .put("name", agent.name())
                .put("description", describe(agent));
        chat.putArray("tags").add("chat");
        for (Tool tool : tools.visibleTo(agent)) {
            ToolDefinition d = tool.definition();
            ObjectNode skill = skills.addObject()
                    .put("id", d.name())
                    .put("name", d.name())
                    .put("description", d.description().isBlank() ? d.name() : d.description());
            ArrayNode tags = skill.putArray("tags").add("tool");
            if (d.destructive()) tags.add("destructive");
        }
        return card;
    }

    private static String describe(AgentDefinition agent) {
        return agent.description() == null || agent.description().isBlank()
                ? "Baton agent " + agent.id()
                : agent.description();
    }
}
