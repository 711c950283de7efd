package dev.baton.server.usage;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.store.jdbc.usage.JdbcUsageStore;
import dev.baton.store.jdbc.usage.UsageDimension;
import dev.baton.store.jdbc.usage.UsagePeriod;
import dev.baton.store.jdbc.usage.UsageTotals;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /v1/admin/usage?from=&to=&groupBy=user|agent|model|day}: tokens and cost of the caller's tenant over a
 * period, grouped (admins only: permission {@code admin:usage}). One SQL query per request.
 *
 * <p>{@code from} and {@code to} are ISO-8601 instants ({@code 2025-03-01T00:00:00Z}) or UTC days
 * ({@code 2025-03-01}); the period is {@code [from, to)}, and a day given as {@code to} is included whole. They default
 * to the start of the current UTC month and the end of the current UTC day. {@code groupBy} is one dimension or
 * several separated by commas; without it the answer is one total.
 */
public final class UsageRoutes {
    public static final String PERMISSION = "admin:usage";

    private final JdbcUsageStore usage;
    private final Clock clock;

    public UsageRoutes(JdbcUsageStore usage, Clock clock) {
        this.usage = usage;
        this.clock = clock;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/admin/usage", this::report);
    }

    private void report(Context ctx) {
        Principal admin = Caller.with(ctx, PERMISSION);
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        Instant from = instant(ctx.queryParam("from"), "from", false);
        Instant to = instant(ctx.queryParam("to"), "to", true);
        if (from == null)
            from = today.withDayOfMonth(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        if (to == null) to = today.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        if (!from.isBefore(to)) throw ApiException.badRequest("'from' must be before 'to'");
        List<UsageDimension> groupBy = dimensions(ctx.queryParam("groupBy"));

        List<UsageTotals> rows = usage.report(admin.tenantId(), new UsagePeriod(from, to), groupBy);

        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("tenant", admin.tenantId()).put("from", from.toString()).put("to", to.toString());
        ArrayNode dims = out.putArray("groupBy");
        groupBy.forEach(d -> dims.add(d.wireName()));
        ArrayNode groups = out.putArray("groups");
        long calls = 0;
        long in = 0;
        long outTokens = 0;
        long cached = 0;
        BigDecimal cost = BigDecimal.ZERO;
        for (UsageTotals t : rows) {
            ObjectNode g = groups.addObject();
            groupBy.forEach(d -> g.put(d.wireName(), t.group().get(d)));
            totals(g, t.calls(), t.inputTokens(), t.outputTokens(), t.cachedInputTokens(), t.costUsd());
            calls += t.calls();
            in += t.inputTokens();
            outTokens += t.outputTokens();
            cached += t.cachedInputTokens();
            cost = cost.add(t.costUsd());
        }
        totals(out.putObject("total"), calls, in, outTokens, cached, cost);
        out.put("truncated", rows.size() >= JdbcUsageStore.MAX_GROUPS);
        ctx.json(out);
    }

    private static void totals(ObjectNode n, long calls, long in, long out, long cached, BigDecimal cost) {
        n.put("calls", calls)
                .put("inputTokens", in)
                .put("outputTokens", out)
                .put("cachedInputTokens", cached)
                .put("costUsd", cost);
    }

    private static List<UsageDimension> dimensions(String param) {
        if (param == null || param.isBlank()) return List.of();
        Set<UsageDimension> dims = new LinkedHashSet<>();
        for (String name : param.split(",")) {
            try {
                dims.add(UsageDimension.fromWire(name));
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest(e.getMessage());
            }
        }
        return new ArrayList<>(dims);
    }

    /** An instant, or a UTC day: its start, or (for an inclusive end) the start of the next day. */
    private static Instant instant(String value, String name, boolean endOfDay) {
        if (value == null || value.isBlank()) return null;
        try {
            if (value.length() == 10) {
                LocalDate day = LocalDate.parse(value);
                return (endOfDay ? day.plusDays(1) : day)
                        .atStartOfDay(ZoneOffset.UTC)
                        .toInstant();
            }
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest("'" + name + "' must be an ISO-8601 instant or a day (YYYY-MM-DD)");
        }
    }
}
