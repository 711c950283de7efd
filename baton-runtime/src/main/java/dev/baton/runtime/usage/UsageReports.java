package dev.baton.runtime.usage;

import dev.baton.core.auth.Principal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.session.Sessions;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Tokens and cost of the caller's tenant over a period, grouped (administrators only: {@value #PERMISSION}). One
 * store query per report.
 *
 * <p>{@code from} and {@code to} are ISO-8601 instants ({@code 2025-03-01T00:00:00Z}) or UTC days ({@code
 * 2025-03-01}); the period is {@code [from, to)}, and a day given as {@code to} is included whole. They default to
 * the start of the current UTC month and the end of the current UTC day. {@code groupBy} is one dimension or several
 * separated by commas; without it the report is one total.
 */
public final class UsageReports {
    public static final String PERMISSION = "admin:usage";

    private final UsageStore store;
    private final Clock clock;

    public UsageReports(UsageStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A report: the groups in order, their sum, and whether the store cut the groups off at its maximum. */
    public record UsageReport(
            String tenant,
            Instant from,
            Instant to,
            List<UsageDimension> groupBy,
            List<UsageTotals> groups,
            UsageTotals total,
            boolean truncated) {
        public UsageReport {
            groupBy = List.copyOf(groupBy);
            groups = List.copyOf(groups);
        }
    }

    /**
     * The report for the administrator's tenant.
     *
     * @param from null for the start of the current UTC month
     * @param to null for the end of the current UTC day
     * @param groupBy null or blank for one total
     * @throws RefusalException {@link dev.baton.runtime.Refusal.Forbidden} without {@value #PERMISSION};
     *     {@link dev.baton.runtime.Refusal.InvalidInput} for a bad instant, an empty period or an unknown dimension
     */
    public UsageReport report(Principal admin, String from, String to, String groupBy) {
        Sessions.require(admin, PERMISSION);
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        Instant start = instant(from, "from", false);
        Instant end = instant(to, "to", true);
        if (start == null)
            start = today.withDayOfMonth(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        if (end == null) end = today.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        if (!start.isBefore(end)) throw RefusalException.invalidInput("'from' must be before 'to'");
        List<UsageDimension> dimensions = dimensions(groupBy);
        List<UsageTotals> rows = store.report(admin.tenantId(), new UsagePeriod(start, end), dimensions);
        long calls = 0;
        long in = 0;
        long out = 0;
        long cached = 0;
        BigDecimal cost = BigDecimal.ZERO;
        for (UsageTotals t : rows) {
            calls += t.calls();
            in += t.inputTokens();
            out += t.outputTokens();
            cached += t.cachedInputTokens();
            cost = cost.add(t.costUsd());
        }
        UsageTotals total = new UsageTotals(java.util.Map.of(), calls, in, out, cached, cost);
        return new UsageReport(
                admin.tenantId(), start, end, dimensions, rows, total, rows.size() >= UsageStore.MAX_GROUPS);
    }

    private static List<UsageDimension> dimensions(String param) {
        if (param == null || param.isBlank()) return List.of();
        Set<UsageDimension> dims = new LinkedHashSet<>();
        for (String name : param.split(",")) {
            try {
                dims.add(UsageDimension.fromWire(name));
            } catch (IllegalArgumentException e) {
                throw RefusalException.invalidInput(e.getMessage());
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
            throw RefusalException.invalidInput("'" + name + "' must be an ISO-8601 instant or a day (YYYY-MM-DD)");
        }
    }
}
