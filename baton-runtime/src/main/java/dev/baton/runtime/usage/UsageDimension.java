package dev.baton.runtime.usage;

import java.util.Locale;

/** What usage can be grouped by: {@code GET /v1/admin/usage?groupBy=user|agent|model|day}. */
public enum UsageDimension {
    USER,
    AGENT,
    /** {@code provider:model}, as the provider reported it. */
    MODEL,
    /** The UTC calendar day, {@code YYYY-MM-DD}. */
    DAY;

    /** The name used on the wire, e.g. {@code user}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The dimension with the given wire name. */
    public static UsageDimension fromWire(String name) {
        for (UsageDimension d : values()) {
            if (d.wireName().equals(name.trim().toLowerCase(Locale.ROOT))) return d;
        }
        throw new IllegalArgumentException("unknown usage dimension '" + name + "' (want user, agent, model or day)");
    }
}
