package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.server.http.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code baton approvals}: the tool calls a session's turn waits on, and the decision on one. Deciding is the session
 * owner's: the token is the user's ({@code GET /v1/sessions/{id}}, {@code POST /v1/sessions/{id}/approvals/{callId}}).
 */
@Command(
        name = "approvals",
        mixinStandardHelpOptions = true,
        description = "List the tool calls a session waits on, or approve or deny one (as the session's user).",
        subcommands = {ApprovalsCommand.Approve.class, ApprovalsCommand.Deny.class})
final class ApprovalsCommand implements Callable<Integer> {
    @Mixin
    ServerOptions server;

    @Parameters(arity = "0..1", paramLabel = "SESSION", description = "The session whose held calls to list.")
    String session;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (session == null)
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "name the session: baton approvals SESSION (or approve/deny SESSION CALL)");
        JsonNode answer = server.client("demo", "student").get("/v1/sessions/" + ServerClient.encode(session));
        server.print(System.out, answer.path("pendingApprovals"), () -> {
            TextTable table = new TextTable("CALL", "TOOL", "WHAT", "ARGUMENTS", "EXPIRES");
            for (JsonNode a : answer.path("pendingApprovals"))
                table.row(
                        a.path("callId").asText(),
                        a.path("name").asText(),
                        // what the call would do in its tool's words; "-" when the tool gives no summary
                        a.path("summary").isTextual() ? a.path("summary").asText() : "-",
                        a.path("arguments").toString(),
                        a.path("expiresAt").asText());
            table.print(System.out, "Nothing waits for approval in this session.");
        });
        return ExitCodes.OK;
    }

    /** The decision, and the turn's answer when it was the last call the turn waited on. */
    abstract static class Decision implements Callable<Integer> {
        @Mixin
        ServerOptions server;

        @Parameters(index = "0", paramLabel = "SESSION", description = "The session id.")
        String session;

        @Parameters(index = "1", paramLabel = "CALL", description = "The held call's id (baton approvals SESSION).")
        String call;

        @Option(names = "--comment", description = "Why (kept in the audit trail).")
        String comment;

        abstract String decision();

        @Override
        public Integer call() {
            ObjectNode body = Json.MAPPER.createObjectNode().put("decision", decision());
            if (comment != null) body.put("comment", comment);
            JsonNode answer = server.client("demo", "student")
                    .post(
                            "/v1/sessions/" + ServerClient.encode(session) + "/approvals/" + ServerClient.encode(call),
                            body);
            server.print(System.out, answer, () -> {
                String content = answer.path("answer").asText("");
                if (answer.path("state").asText().equals("awaiting_approval"))
                    System.out.println("Recorded; the turn still waits on "
                            + answer.path("pendingApprovals").size() + " more call(s).");
                else System.out.println(content.isEmpty() ? "Recorded." : content);
            });
            return ExitCodes.OK;
        }
    }

    @Command(name = "approve", mixinStandardHelpOptions = true, description = "Approve a held tool call.")
    static final class Approve extends Decision {
        @Override
        String decision() {
            return "approve";
        }
    }

    @Command(name = "deny", mixinStandardHelpOptions = true, description = "Deny a held tool call.")
    static final class Deny extends Decision {
        @Override
        String decision() {
            return "deny";
        }
    }
}
