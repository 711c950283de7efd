package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code baton sessions}: the caller's conversations, newest first ({@code GET /v1/sessions}). */
@Command(
        name = "sessions",
        mixinStandardHelpOptions = true,
        description = "List your sessions, newest first (GET /v1/sessions).")
final class SessionsCommand implements Callable<Integer> {
    @Mixin
    ServerOptions server;

    @Option(names = "--agent", description = "Only this agent's sessions.")
    String agent;

    @Option(names = "--state", description = "active or completed.")
    String state;

    @Option(names = "--limit", defaultValue = "20", description = "How many (1-100, default: ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() {
        StringBuilder path = new StringBuilder("/v1/sessions?limit=").append(limit);
        if (agent != null) path.append("&agentId=").append(ServerClient.encode(agent));
        if (state != null) path.append("&state=").append(ServerClient.encode(state));
        JsonNode answer = server.client("demo", "student").get(path.toString());
        server.print(System.out, answer, () -> {
            TextTable table = new TextTable("ID", "AGENT", "STATE", "MESSAGES", "STARTED");
            for (JsonNode s : answer.path("sessions"))
                table.row(
                        s.path("id").asText(),
                        s.path("agentId").asText(),
                        s.path("state").asText(),
                        s.path("messageCount").asInt(),
                        s.path("startedAt").asText());
            table.print(System.out, "No sessions.");
        });
        return ExitCodes.OK;
    }
}
