package dev.baton.mcp.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.pin.PinGuard;
import dev.baton.mcp.pin.ToolFingerprint;
import dev.baton.mcp.pin.ToolText;
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
 * timeouts, the confirmation flag from the operator's word or the server's trusted hints, text cleaned of what a person
 * cannot see, and only the tools whose pins vouch for them.
 */
final class CatalogueBuilder {
    private static final Logger log = LoggerFactory.getLogger(CatalogueBuilder.class);

    private final McpServerSettings settings;
    private final PinGuard pins;
    private final CallTarget calls;

    CatalogueBuilder(McpServerSettings settings, PinGuard pins, CallTarget calls) {
        this.settings = settings;
        this.pins = pins;
        this.calls = calls;
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
            // the text as the server sent it: hiding characters in it later is a change like any other
            String fingerprint = ToolFingerprint.of(
                    tool.title(), tool.description(), schema, SdkJson.tree(tool.outputSchema()), annotations);
            ToolText title = ToolText.of(tool.title());
            ToolText description = ToolText.of(tool.description());
            pins.flag(settings.name(), tool.name(), fingerprint, findings(title, description));
            switch (pins.check(settings.name(), tool.name(), fingerprint)) {
                case PinGuard.Verdict.Allowed allowed -> {
                    try {
                        offered.add(new McpTool(
                                definition(tool, exposed, schema, title.text(), description.text()),
                                tool.name(),
                                calls,
                                settings));
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

    private static List<String> findings(ToolText title, ToolText description) {
        List<String> out = new ArrayList<>();
        for (var field :
                List.of(java.util.Map.entry("title", title), java.util.Map.entry("description", description))) {
            ToolText text = field.getValue();
            if (text.invisible() > 0)
                out.add(field.getKey() + ": " + text.invisible() + " invisible characters removed");
            if (!text.instructions().isEmpty())
                out.add(field.getKey() + " reads like an instruction to the model ("
                        + String.join(", ", text.instructions()) + ")");
        }
        return out;
    }

    private ToolDefinition definition(
            McpSchema.Tool tool, String exposed, JsonNode schema, String title, String description) {
        String offeredText = description != null
                ? description
                : title != null ? title : "Tool " + tool.name() + " of " + settings.name() + ".";
        if (!schema.isObject()) throw new IllegalArgumentException("its inputSchema is not a JSON object");
        return new ToolDefinition(
                exposed,
                offeredText,
                schema,
                settings.permissionsFor(tool.name()),
                settings.timeoutFor(tool.name()),
                settings.destructiveOverride(tool.name())
                        .orElseGet(() -> settings.trusted() ? destructive(tool.annotations()) : true),
                settings.sharedWith(),
                settings.trusted() && idempotent(tool.annotations()));
    }

    /**
     * Whether a trusted server says a call may run twice to the effect of once: it only reads ({@code readOnlyHint})
     * or says so ({@code idempotentHint}). The spec's default is false; an untrusted server's word is not taken.
     */
    static boolean idempotent(McpSchema.ToolAnnotations annotations) {
        if (annotations == null) return false;
        return Boolean.TRUE.equals(annotations.readOnlyHint()) || Boolean.TRUE.equals(annotations.idempotentHint());
    }

    /**
     * The MCP spec's defaults, for a trusted server: a tool is presumed destructive unless it says it only reads
     * ({@code readOnlyHint}) or that its updates are additive ({@code destructiveHint: false}). An untrusted server's
     * hints are not believed: they come from the server itself.
     */
    static boolean destructive(McpSchema.ToolAnnotations annotations) {
        if (annotations == null) return true;
        if (Boolean.TRUE.equals(annotations.readOnlyHint())) return false;
        return !Boolean.FALSE.equals(annotations.destructiveHint());
    }
}
