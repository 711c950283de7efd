package dev.baton.server.usage;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.runtime.usage.UsageReports;
import dev.baton.runtime.usage.UsageTotals;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * {@code GET /v1/admin/usage?from=&to=&groupBy=user|agent|model|day}: the HTTP wire around {@link UsageReports},
 * which holds the rules (who may ask, the default period, the dimensions).
 */
public final class UsageRoutes {
    private final UsageReports usage;

    public UsageRoutes(UsageReports usage) {
        this.usage = usage;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/admin/usage", this::report);
    }

    private void report(Context ctx) {
        UsageReports.UsageReport report =
                usage.report(Caller.of(ctx), ctx.queryParam("from"), ctx.queryParam("to"), ctx.queryParam("groupBy"));
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("tenant", report.tenant())
                .put("from", report.from().toString())
                .put("to", report.to().toString());
        ArrayNode dims = out.putArray("groupBy");
        report.groupBy().forEach(d -> dims.add(d.wireName()));
        ArrayNode groups = out.putArray("groups");
        for (UsageTotals t : report.groups()) {
            ObjectNode g = groups.addObject();
            report.groupBy().forEach(d -> g.put(d.wireName(), t.group().get(d)));
            totals(g, t);
        }
        totals(out.putObject("total"), report.total());
        out.put("truncated", report.truncated());
        ctx.json(out);
    }

    private static void totals(ObjectNode n, UsageTotals t) {
        n.put("calls", t.calls())
                .put("inputTokens", t.inputTokens())
                .put("outputTokens", t.outputTokens())
                .put("cachedInputTokens", t.cachedInputTokens())
                .put("costUsd", t.costUsd());
    }
}
