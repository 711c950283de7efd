package dev.baton.runtime.usage;

import java.math.BigDecimal;
import java.util.Objects;

/** What a user or tenant spent since the start of the current day and of the current month, in USD. */
public record PeriodSpend(BigDecimal today, BigDecimal thisMonth) {
    public static final PeriodSpend NONE = new PeriodSpend(BigDecimal.ZERO, BigDecimal.ZERO);

    public PeriodSpend {
        Objects.requireNonNull(today, "today");
        Objects.requireNonNull(thisMonth, "thisMonth");
    }
}
