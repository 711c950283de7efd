package dev.baton.mcp.server;

import dev.baton.core.conversation.Session;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.turn.Cancellation;
import dev.baton.mcp.client.SdkJson;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.tool.ToolAccess;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The caller's tools for the SDK's 2026-07-28 tools feature: {@code tools/list} is {@link ToolAccess#visibleTo} sorted
 * by name (the same order on every request while the tools stay the same, as the revision asks, so clients and model
 * prompt caches can keep it), and {@code tools/call} runs through {@link ToolAccess#call} — the turn's executor, its
 * checks and its audit — as the caller named in the request's transport context, after Baton's approval rule
 * ({@link ToolCallApproval}, {@link ToolConfirmation}). A tool the caller may not use is unknown, like one that does
 * not exist.
 *
 * <p>There is no session in this revision, and every call is recorded in a session of its own (with the agent that
 * admits the tool), completed when the call ends: the audit keeps who called what, when, with what outcome.
 */
final class StatelessTools implements McpSyncToolRepository {
    private static final Logger log = LoggerFactory.getLogger(StatelessTools.class);

    private final ToolAccess tools;
    private final Sessions sessions;
    private final ToolCallApproval approval;
    private final McpJsonMapper json;

    StatelessTools(ToolAccess tools, Sessions sessions, ToolCallApproval approval, McpJsonMapper json) {
        this.tools = tools;
        this.sessions = sessions;
        this.approval = approval;
        this.json = json;
    }

    @Override
    public ToolsPage list(McpRequestContext context, String cursor) {
        // one page holds every tool, so no cursor was ever issued
        if (cursor != null) throw McpException.invalidParams("unknown cursor: every tool is on the first page");
        List<McpSchema.Tool> listed = visible(context).stream()
                .map(permitted -> tool(permitted.tool().definition()))
                .toList();
        return ToolsPage.of(listed);
    }

    @Override
    public McpSyncTool find(McpRequestContext context, String name) {
        return visible(context).stream()
                .filter(permitted -> permitted.tool().definition().name().equals(name))
                .findFirst()
                .map(permitted -> McpSyncTool.of(
                        tool(permitted.tool().definition()),
                        (ctx, request) -> McpSyncResponse.result(call(ctx, permitted, request))))
                .orElse(null);
    }

    private List<ToolAccess.Permitted> visible(McpRequestContext context) {
        StatelessServer.Caller caller = StatelessServer.caller(context);
        return tools.visibleTo(caller.principal(), caller.agentId()).stream()
                .sorted(Comparator.comparing(p -> p.tool().definition().name()))
                .toList();
    }

    private McpSchema.CallToolOutcome call(
            McpRequestContext context, ToolAccess.Permitted permitted, McpSchema.CallToolRequest request) {
        StatelessServer.Caller caller = StatelessServer.caller(context);
        String arguments = McpTools.arguments(request.arguments());
        Optional<String> reason = approval.reasonToHold(permitted);
        if (reason.isPresent()) {
            switch (ToolConfirmation.decide(context, request, arguments, reason.get(), approval.trustClients(), json)) {
                case ToolConfirmation.Decision.Ask ask -> {
                    return ask.question();
                }
                case ToolConfirmation.Decision.Refuse refuse -> {
                    log.info(
                            "/mcp: {} of user {} not run: {}",
                            request.name(),
                            caller.principal().userId(),
                            reason.get());
                    return refuse.error();
                }
                case ToolConfirmation.Decision.Run run ->
                    log.info(
                            "/mcp: {} of user {} needs approval and runs: {}",
                            request.name(),
                            caller.principal().userId(),
                            context.clientCapabilities().supportsElicitationForm()
                                    ? "the user approved it in their MCP client"
                                    : "trusted to the MCP client (server.mcpTrustClientConfirmation)");
            }
        }
        return result(run(caller, permitted, request.name(), arguments));
    }

    private ToolCallOutcome run(
            StatelessServer.Caller caller, ToolAccess.Permitted permitted, String name, String arguments) {
        Session session = sessions.start(caller.principal(), permitted.agent().id(), null);
        try {
            return tools.call(caller.principal(), session.id(), caller.agentId(), name, arguments, new Cancellation());
        } finally {
            sessions.complete(caller.principal(), session.id());
        }
    }

    /** The tool as a 2026-07-28 client lists it: as {@link McpTools#tool} does for the older revisions. */
    static McpSchema.Tool tool(ToolDefinition definition) {
        return McpSchema.Tool.builder(definition.name(), SdkJson.map(definition.parametersSchema()))
                .description(definition.description())
                .annotations(new McpSchema.ToolAnnotations(null, null, definition.destructive(), null, null))
                .build();
    }

    /** The outcome as a result, as {@link McpTools#result} does for the older revisions ({@code resultType} complete). */
    static McpSchema.CallToolResult result(ToolCallOutcome outcome) {
        if (!outcome.ok())
            return ToolConfirmation.error(
                    outcome.error().code() + ": " + outcome.error().message());
        McpSchema.CallToolResult.Builder builder = McpSchema.CallToolResult.builder()
                .addContent(McpSchema.TextContent.builder(outcome.result().toString())
                        .build())
                .isError(false);
        if (outcome.result().isObject()) builder.structuredContent(SdkJson.map(outcome.result()));
        return builder.build();
    }
}
