package dev.baton.mcp.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.pin.PinGuard;
import dev.baton.mcp.pin.ToolFingerprint;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a server's {@code tools/list} into what Baton offers: namespaced names, the configured permissions and
 * timeouts, the confirmation flag from the annotations, and only the tools whose pins vouch for them.
 */
final class CatalogueBuilder {
    private static final Logger log = LoggerFactory.getLogger(CatalogueBuilder.class);

    private final McpServerSettings settings;
    private final PinGuard pins;
    private final McpConnection connection;

    CatalogueBuilder(McpServerSettings settings, PinGuard pins, McpConnection connection) {
        this.settings = settings;
        this.pins = pins;
        this.connection = connection;
    }

    Catalogue build(List<McpSchema.Tool> listed, long version, Refresh cause, Instant now) {
        List<McpTool> offered = new ArrayList<>();
        List<Catalogue.HeldBack> heldBack = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (McpSchema.Tool tool : listed) {
            if (tool.name() == null || tool.name().isBlank()) {
                log.warn("MCP server {} lists a tool without a name; it is ignored", settings.name());
                continue;
            }
            String exposed = ToolNames.exposed(settings.name(), tool.name());
            if (!names.add(exposed)) {
                log.warn("MCP server {} lists two tools named {}; the second is ignored", settings.name(), exposed);
                continue;
            }
            JsonNode schema = SdkJson.tree(tool.inputSchema());
            JsonNode annotations = SdkJson.annotations(tool.annotations());
            String fingerprint = ToolFingerprint.of(tool.description(), schema, annotations);
            switch (pins.check(settings.name(), tool.name(), fingerprint)) {
                case PinGuard.Verdict.Allowed allowed -> {
                    try {
                        offered.add(new McpTool(definition(tool, exposed, schema), tool.name(), connection));
                    } catch (IllegalArgumentException e) {
                        log.warn(
                                "MCP server {}: tool {} is unusable: {}", settings.name(), tool.name(), e.getMessage());
                    }
                }
                case PinGuard.Verdict.Changed changed ->
                    heldBack.add(new Catalogue.HeldBack(
                            tool.name(),
                            exposed,
                            "changed since it was pinned",
                            changed.pin().changedHash()));
                case PinGuard.Verdict.Unverified unverified ->
                    heldBack.add(new Catalogue.HeldBack(
                            tool.name(), exposed, "its pin could not be checked: " + unverified.reason(), null));
            }
        }
        return new Catalogue(offered, heldBack, version, cause, now);
    }

    private ToolDefinition definition(McpSchema.Tool tool, String exposed, JsonNode schema) {
        String description = tool.description() != null
                ? tool.description()
                : tool.title() != null ? tool.title() : "Tool " + tool.name() + " of " + settings.name() + ".";
        if (!schema.isObject()) throw new IllegalArgumentException("its inputSchema is not a JSON object");
        return new ToolDefinition(
                exposed,
                description,
                schema,
                settings.permissionsFor(tool.name()),
                settings.timeoutFor(tool.name()),
                destructive(tool.annotations()));
    }

    /**
     * The MCP spec's defaults: a tool is presumed destructive unless it says it only reads ({@code readOnlyHint}) or
     * that its updates are additive ({@code destructiveHint: false}).
     */
    static boolean destructive(McpSchema.ToolAnnotations annotations) {
        if (annotations == null) return true;
        if (Boolean.TRUE.equals(annotations.readOnlyHint())) return false;
        return !Boolean.FALSE.equals(annotations.destructiveHint());
    }
}
