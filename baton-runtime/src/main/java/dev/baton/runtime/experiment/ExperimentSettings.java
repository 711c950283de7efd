package dev.baton.runtime.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import dev.baton.runtime.agent.AgentRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * baton.yaml's {@code experiments:} section.
 *
 * <pre>{@code
 * experiments:
 *   refreshEvery: 5s     # how stale another instance's change may be here
 *   evaluateEvery: 30s   # how often the rollback triggers are judged; 0 turns the job off
 *   definitions:
 *     learning-agent-v2:
 *       baseAgent: learning
 *       arms: [...]       # see ExperimentDefinition
 * }</pre>
 *
 * Definitions seed the database once: an experiment already stored (its weights moved by an operator or a rollback)
 * is left as it is.
 */
public record ExperimentSettings(Duration refreshEvery, Duration evaluateEvery, List<Experiment> definitions) {
    public static final String SECTION = "experiments";
    public static final ExperimentSettings DEFAULTS =
            new ExperimentSettings(Duration.ofSeconds(5), Duration.ofSeconds(30), List.of());

    public ExperimentSettings {
        definitions = List.copyOf(definitions);
        if (refreshEvery.isNegative()) throw new IllegalArgumentException("experiments.refreshEvery must be >= 0");
        if (evaluateEvery.isNegative()) throw new IllegalArgumentException("experiments.evaluateEvery must be >= 0");
    }

    /** These settings, another instance's change seen here at most {@code every} later. */
    public ExperimentSettings withRefreshEvery(Duration every) {
        return new ExperimentSettings(every, evaluateEvery, definitions);
    }

    /** These settings, the rollback triggers judged every {@code every} (zero: never). */
    public ExperimentSettings withEvaluateEvery(Duration every) {
        return new ExperimentSettings(refreshEvery, every, definitions);
    }

    /** These settings, seeding {@code experiments} into an empty store. */
    public ExperimentSettings withDefinitions(List<Experiment> experiments) {
        return new ExperimentSettings(refreshEvery, evaluateEvery, experiments);
    }

    /**
     * Reads the section; whether the agents the experiments name exist is checked by {@link #requireAgents} (the
     * agents may not be known yet).
     *
     * @throws IllegalArgumentException ({@link ConfigProblem} where a key is at fault) for a bad value
     */
    public static ExperimentSettings from(JsonNode section) {
        ConfigSection s = ConfigSection.of(section, SECTION, "refreshEvery", "evaluateEvery", "definitions");
        JsonNode defs = s.get("definitions");
        List<Experiment> experiments = new ArrayList<>();
        if (!defs.isMissingNode() && !defs.isNull()) {
            if (!defs.isObject()) throw s.invalid("definitions", "must be a mapping of experiment ids to experiments");
            for (var it = defs.fields(); it.hasNext(); ) {
                var entry = it.next();
                experiments.add(ExperimentDefinition.read(entry.getKey(), entry.getValue(), path(entry.getKey()), 1));
            }
        }
        return new ExperimentSettings(
                s.duration("refreshEvery", DEFAULTS.refreshEvery()),
                s.duration("evaluateEvery", DEFAULTS.evaluateEvery()),
                experiments);
    }

    /**
     * Reads the section; every agent an experiment names must exist.
     *
     * @throws IllegalArgumentException ({@link ConfigProblem} where a key is at fault) for a bad value or an agent
     *     that is not configured
     */
    public static ExperimentSettings from(JsonNode section, AgentRegistry agents) {
        ExperimentSettings read = from(section);
        JsonNode defs = section.path("definitions");
        for (Experiment e : read.definitions()) {
            String unknown = unknownAgent(e, agents);
            if (unknown != null)
                throw ConfigProblem.of(
                        naming(defs.path(e.id()), unknown), path(e.id()) + ": unknown agent '" + unknown + "'");
        }
        return read;
    }

    /**
     * Checks that every agent the experiments name is one of {@code agents}.
     *
     * @throws IllegalArgumentException naming the first experiment with an agent that is not configured
     */
    public void requireAgents(AgentRegistry agents) {
        for (Experiment e : definitions) {
            String unknown = unknownAgent(e, agents);
            if (unknown != null) throw new IllegalArgumentException(path(e.id()) + ": unknown agent '" + unknown + "'");
        }
    }

    private static String path(String experimentId) {
        return SECTION + ".definitions." + experimentId;
    }

    /** Where in the definition {@code agent} is named: an arm, the fallback, or the definition itself. */
    private static JsonNode naming(JsonNode definition, String agent) {
        for (JsonNode arm : definition.path("arms"))
            if (agent.equals(arm.path("agent").asText())) return arm;
        if (agent.equals(definition.path("fallback").path("agent").asText())) return definition.path("fallback");
        return definition;
    }

    /** The first agent the experiment names that is not configured; null when all are. */
    static String unknownAgent(Experiment e, AgentRegistry agents) {
        if (agents.find(e.baseAgentId()).isEmpty()) return e.baseAgentId();
        for (String id : e.agentIds()) if (agents.find(id).isEmpty()) return id;
        return null;
    }
}
