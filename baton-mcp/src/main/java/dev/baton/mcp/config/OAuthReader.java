package dev.baton.mcp.config;

import static dev.baton.mcp.config.SectionNodes.checkKeys;
import static dev.baton.mcp.config.SectionNodes.optionalText;
import static dev.baton.mcp.config.SectionNodes.optionalUrl;
import static dev.baton.mcp.config.SectionNodes.requireObject;
import static dev.baton.mcp.config.SectionNodes.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Reads a server's {@code auth: oauth} and its {@code oauth:} map, with which users connect their own accounts. */
final class OAuthReader {
    private static final Set<String> OAUTH_KEYS =
            Set.of("issuer", "clientId", "clientSecret", "clientMetadataUrl", "scopes", "resource");

    private OAuthReader() {}

    /** {@code auth: oauth} and its {@code oauth:} map; null for a server without user authorization. */
    static OAuthSettings oauth(JsonNode node, String where, McpTransport transport, Placeholders placeholders) {
        String auth = node.has("auth") ? text(node.path("auth"), where + ".auth") : "none";
        if (!auth.equals("oauth") && !auth.equals("none"))
            throw new IllegalArgumentException(where + ".auth must be oauth or none, got '" + auth + "'");
        JsonNode settings = node.path("oauth");
        if (auth.equals("none")) {
            if (!settings.isMissingNode())
                throw new IllegalArgumentException(where + ".oauth is for auth: oauth; add auth: oauth or remove it");
            return null;
        }
        if (!(transport instanceof McpTransport.Http http))
            throw new IllegalArgumentException(where + ": auth: oauth is for url servers, not command ones");
        String oauthWhere = where + ".oauth";
        if (settings.isMissingNode() || settings.isNull())
            settings = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        else {
            requireObject(settings, oauthWhere);
            checkKeys(settings, OAUTH_KEYS, oauthWhere);
        }
        List<String> scopes = new ArrayList<>();
        JsonNode scopesNode = settings.path("scopes");
        if (!scopesNode.isMissingNode()) {
            if (!scopesNode.isArray())
                throw new IllegalArgumentException(oauthWhere + ".scopes must be a list of strings");
            for (int i = 0; i < scopesNode.size(); i++)
                scopes.add(text(scopesNode.get(i), oauthWhere + ".scopes[" + i + "]"));
        }
        try {
            return new OAuthSettings(
                    optionalUrl(settings.path("issuer"), oauthWhere + ".issuer", placeholders),
                    optionalText(settings.path("clientId"), oauthWhere + ".clientId", placeholders),
                    optionalText(settings.path("clientSecret"), oauthWhere + ".clientSecret", placeholders),
                    optionalUrl(settings.path("clientMetadataUrl"), oauthWhere + ".clientMetadataUrl", placeholders),
                    scopes,
                    settings.has("resource")
                            ? optionalUrl(settings.path("resource"), oauthWhere + ".resource", placeholders)
                            : http.url());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(oauthWhere + ": " + e.getMessage(), e);
        }
    }
}
