package dev.baton.eval;

import java.util.List;
import java.util.Objects;

/**
 * One user message of a scenario and what its turn must show.
 *
 * @param line where the turn is written in the suite file, for the report
 */
public record ScenarioTurn(String user, List<Expectation> expectations, int line) {
    public ScenarioTurn {
        Objects.requireNonNull(user, "user");
        expectations = List.copyOf(expectations);
    }
}
