package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code baton mcp}: the MCP servers Baton uses and the tool pins to review ({@code /v1/admin/mcp/...}). */
@Command(
        name = "mcp",
        mixinStandardHelpOptions = true,
        description = "Show the MCP servers, list tool pins, or accept a changed tool (needs admin:mcp).",
        subcommands = {McpCommand.Pins.class, McpCommand.Accept.class})
final class McpCommand implements Callable<Integer> {
    @Mixin
    ServerOptions server;

    @Override
    public Integer call() {
        JsonNode answer = server.admin().get("/v1/admin/mcp/servers");
        server.print(System.out, answer, () -> {
            TextTable table = new TextTable("SERVER", "STATE", "TRANSPORT", "TOOLS", "HELD BACK", "RESTARTS", "ERROR");
            for (JsonNode s : answer.path("servers"))
                table.row(
                        s.path("name").asText(),
                        s.path("state").asText(),
                        s.path("transport").asText(),
                        s.path("tools").asInt(),
                        s.path("heldBack").asInt(),
                        s.path("restarts").asInt(),
                        s.path("lastError").asText(null));
            table.print(System.out, "No MCP servers are configured.");
        });
        return ExitCodes.OK;
    }

    @Command(name = "pins", mixinStandardHelpOptions = true, description = "The tools' pins; changed ones first.")
    static final class Pins implements Callable<Integer> {
        @Mixin
        ServerOptions server;

        @Override
        public Integer call() {
            JsonNode answer = server.admin().get("/v1/admin/mcp/pins");
            server.print(System.out, answer, () -> {
                TextTable changed = new TextTable("SERVER", "TOOL", "PINNED AT", "OFFERED");
                TextTable kept = new TextTable("SERVER", "TOOL", "PINNED AT", "OFFERED");
                for (JsonNode p : answer.path("pins")) {
                    TextTable into = p.path("changedHash").isTextual() ? changed : kept;
                    into.row(
                            p.path("server").asText(),
                            p.path("tool").asText(),
                            p.path("pinnedAt").asText(),
                            p.path("offered").asBoolean() ? "yes" : "no");
                }
                if (!changed.isEmpty()) {
                    System.out.println("Changed since pinned (review, then: baton mcp accept SERVER TOOL):");
                    changed.print(System.out, "");
                    System.out.println();
                }
                kept.print(System.out, changed.isEmpty() ? "No tools are pinned yet." : "No other pins.");
            });
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "accept",
            mixinStandardHelpOptions = true,
            description = "Accept a tool's changed definition: it is pinned anew and offered again.")
    static final class Accept implements Callable<Integer> {
        @Mixin
        ServerOptions server;

        @Parameters(index = "0", paramLabel = "SERVER", description = "The MCP server's name.")
        String mcpServer;

        @Parameters(index = "1", paramLabel = "TOOL", description = "The tool's name on that server.")
        String tool;

        @Override
        public Integer call() {
            JsonNode answer = server.admin()
                    .post(
                            "/v1/admin/mcp/pins/" + ServerClient.encode(mcpServer) + "/" + ServerClient.encode(tool)
                                    + "/accept",
                            dev.baton.server.http.Json.MAPPER.createObjectNode());
            server.print(System.out, answer, () -> System.out.println("Accepted " + mcpServer + "/" + tool + "."));
            return ExitCodes.OK;
        }
    }
}
