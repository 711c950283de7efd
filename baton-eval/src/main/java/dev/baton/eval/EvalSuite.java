package dev.baton.eval;

import java.util.List;
import java.util.Objects;

/**
 * A suite of scenarios for one agent, read from YAML by {@link SuiteReader}.
 *
 * @param source the file it was read from, as given
 * @param agent the agent every scenario talks to (overridable from the command line)
 * @param roles the roles of each scenario's user (whose permissions the tools check)
 */
public record EvalSuite(
        String name, String source, String agent, String description, List<String> roles, List<Scenario> scenarios) {
    public EvalSuite {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(agent, "agent");
        description = description == null ? "" : description;
        roles = List.copyOf(roles);
        scenarios = List.copyOf(scenarios);
    }

    /** The same suite for another agent. */
    public EvalSuite withAgent(String otherAgent) {
        return new EvalSuite(name, source, otherAgent, description, roles, scenarios);
    }
}
