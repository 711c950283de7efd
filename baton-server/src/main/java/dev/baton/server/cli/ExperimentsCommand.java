package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.server.http.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code baton experiments}: the A/B experiments, one's report, and new weights ({@code /v1/admin/experiments}). */
@Command(
        name = "experiments",
        mixinStandardHelpOptions = true,
        description = "List experiments, show one's report, or set its weights (needs admin:experiments).",
        subcommands = {ExperimentsCommand.Show.class, ExperimentsCommand.Weights.class})
final class ExperimentsCommand implements Callable<Integer> {
    @Mixin
    ServerOptions server;

    @Override
    public Integer call() {
        JsonNode answer = server.admin().get("/v1/admin/experiments");
        server.print(System.out, answer, () -> {
            TextTable table = new TextTable("ID", "AGENT", "ARMS (WEIGHT)", "TREATING", "VERSION");
            for (JsonNode e : answer.path("experiments"))
                table.row(
                        e.path("id").asText(),
                        e.path("baseAgent").asText(),
                        arms(e),
                        e.path("treating").asBoolean() ? "yes" : "no",
                        e.path("version").asLong());
            table.print(System.out, "No experiments.");
        });
        return ExitCodes.OK;
    }

    static String arms(JsonNode experiment) {
        StringBuilder out = new StringBuilder();
        for (JsonNode arm : experiment.path("arms")) {
            if (!out.isEmpty()) out.append(", ");
            out.append(arm.path("name").asText())
                    .append(" (")
                    .append(arm.path("weight").asInt())
                    .append(')');
        }
        return out.toString();
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "An experiment's arms side by side.")
    static final class Show implements Callable<Integer> {
        @Mixin
        ServerOptions server;

        @Parameters(paramLabel = "ID", description = "The experiment id.")
        String id;

        @Override
        public Integer call() {
            JsonNode answer = server.admin().get("/v1/admin/experiments/" + ServerClient.encode(id));
            server.print(System.out, answer, () -> {
                System.out.println(answer.path("id").asText() + " on "
                        + answer.path("baseAgent").asText() + ": " + arms(answer)
                        + (answer.path("treating").asBoolean() ? "" : " (rolled back)"));
                TextTable table = new TextTable("ARM", "TURNS", "ERRORS", "P95 MS", "COST USD", "TOOL ERRORS");
                for (JsonNode a : answer.path("arms"))
                    table.row(
                            a.path("arm").asText(a.path("name").asText()),
                            a.path("turns").asLong(),
                            a.path("errorRate").asText(),
                            a.path("p95LatencyMs").asText(),
                            a.path("costUsd").asText(),
                            a.path("toolErrorRate").asText());
                table.print(System.out, "No turns yet.");
            });
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "weights",
            mixinStandardHelpOptions = true,
            description = "Set the arms' weights, e.g. weights ID control=90 treatment=10 --reason \"ramp down\".")
    static final class Weights implements Callable<Integer> {
        @Mixin
        ServerOptions server;

        @Parameters(index = "0", paramLabel = "ID", description = "The experiment id.")
        String id;

        @Parameters(index = "1..*", paramLabel = "ARM=WEIGHT", description = "Each arm's new weight (0-100).")
        Map<String, Integer> weights = new LinkedHashMap<>();

        @Option(names = "--reason", description = "Why (kept in the experiment's audit trail).")
        String reason;

        @Override
        public Integer call() {
            ObjectNode body = Json.MAPPER.createObjectNode();
            ObjectNode w = body.putObject("weights");
            weights.forEach(w::put);
            if (reason != null) body.put("reason", reason);
            JsonNode answer = server.admin().request("PATCH", "/v1/admin/experiments/" + ServerClient.encode(id), body);
            server.print(System.out, answer, () -> System.out.println(id + ": " + arms(answer)));
            return ExitCodes.OK;
        }
    }
}
