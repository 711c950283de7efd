package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code baton usage}: model calls, tokens and cost of the tenant, grouped as asked ({@code GET /v1/admin/usage}). */
@Command(
        name = "usage",
        mixinStandardHelpOptions = true,
        description = "Show model calls, tokens and cost (GET /v1/admin/usage; needs admin:usage).")
final class UsageCommand implements Callable<Integer> {
    @Mixin
    ServerOptions server;

    @Option(names = "--from", description = "First day (YYYY-MM-DD; default: 30 days ago).")
    String from;

    @Option(names = "--to", description = "Last day (YYYY-MM-DD; default: today).")
    String to;

    @Option(
            names = "--group-by",
            split = ",",
            description = "Group by user, agent, model, provider, tenant and/or day (comma-separated).")
    List<String> groupBy = new ArrayList<>();

    @Override
    public Integer call() {
        List<String> query = new ArrayList<>();
        if (from != null) query.add("from=" + ServerClient.encode(from));
        if (to != null) query.add("to=" + ServerClient.encode(to));
        if (!groupBy.isEmpty()) query.add("groupBy=" + ServerClient.encode(String.join(",", groupBy)));
        String path = "/v1/admin/usage" + (query.isEmpty() ? "" : "?" + String.join("&", query));
        JsonNode answer = server.admin().get(path);
        server.print(System.out, answer, () -> {
            JsonNode t = answer.path("total");
            System.out.println("Usage from " + answer.path("from").asText() + " to "
                    + answer.path("to").asText()
                    + ": " + t.path("calls").asLong() + " model calls, "
                    + t.path("inputTokens").asLong()
                    + " input tokens, " + t.path("outputTokens").asLong() + " output tokens, $"
                    + t.path("costUsd").asText());
            List<String> dims = new ArrayList<>();
            answer.path("groupBy").forEach(d -> dims.add(d.asText()));
            if (dims.isEmpty()) return;
            List<String> header = new ArrayList<>();
            dims.forEach(d -> header.add(d.toUpperCase(java.util.Locale.ROOT)));
            header.addAll(List.of("CALLS", "INPUT", "OUTPUT", "COST USD"));
            TextTable table = new TextTable(header.toArray(String[]::new));
            for (JsonNode g : answer.path("groups")) {
                List<Object> cells = new ArrayList<>();
                dims.forEach(d -> cells.add(g.path(d).asText()));
                cells.addAll(List.of(
                        g.path("calls").asLong(),
                        g.path("inputTokens").asLong(),
                        g.path("outputTokens").asLong(),
                        g.path("costUsd").asText()));
                table.row(cells.toArray());
            }
            System.out.println();
            table.print(System.out, "No usage in this range.");
            if (answer.path("truncated").asBoolean()) System.out.println("(more groups than shown: narrow the range)");
        });
        return ExitCodes.OK;
    }
}
