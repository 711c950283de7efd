package dev.baton.eval;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/**
 * A conversation of one or more user turns, run as a new user in a new session.
 *
 * @param category groups scenarios in the report ("meta-requests", "affirmatives"); may be empty
 * @param maxCostUsd the most the whole conversation may cost; null for no limit
 * @param line where the scenario is written in the suite file
 */
public record Scenario(String name, String category, List<ScenarioTurn> turns, BigDecimal maxCostUsd, int line) {
    public Scenario {
        Objects.requireNonNull(name, "name");
        category = category == null ? "" : category;
        turns = List.copyOf(turns);
        if (turns.isEmpty()) throw new IllegalArgumentException("a scenario needs at least one turn");
    }
}
