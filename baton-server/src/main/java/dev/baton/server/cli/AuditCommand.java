package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code baton audit SESSION}: a session's audit trail ({@code GET /v1/admin/sessions/{id}/audit}). */
@Command(
        name = "audit",
        mixinStandardHelpOptions = true,
        description = "Show a session's audit trail: what modules redacted or blocked, and every tool call held for"
                + " approval (GET /v1/admin/sessions/{id}/audit; needs admin:audit).")
final class AuditCommand implements Callable<Integer> {
    @Mixin
    ServerOptions server;

    @Parameters(paramLabel = "SESSION", description = "The session id.")
    String session;

    @Override
    public Integer call() {
        JsonNode answer = server.admin().get("/v1/admin/sessions/" + ServerClient.encode(session) + "/audit");
        server.print(System.out, answer, () -> {
            TextTable records = new TextTable("WHEN", "MODULE", "REASON", "PATTERNS");
            for (JsonNode r : answer.path("auditRecords")) {
                StringBuilder patterns = new StringBuilder();
                r.path("patternsMatched")
                        .forEach(p ->
                                patterns.append(patterns.isEmpty() ? "" : ", ").append(p.asText()));
                records.row(
                        r.path("createdAt").asText(),
                        r.path("module").asText(),
                        r.path("reason").asText(null),
                        patterns.toString());
            }
            records.print(System.out, "No module records.");
            System.out.println();
            TextTable approvals = new TextTable("CALL", "TOOL", "STATE", "DECIDED BY", "DECIDED AT");
            for (JsonNode a : answer.path("approvals"))
                approvals.row(
                        a.path("callId").asText(),
                        a.path("name").asText(),
                        a.path("status").asText(),
                        a.path("decidedBy").asText(null),
                        a.path("decidedAt").asText(null));
            approvals.print(System.out, "No tool calls held for approval.");
        });
        return ExitCodes.OK;
    }
}
