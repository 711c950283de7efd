package dev.baton.runtime.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * An experiment as a mapping, read strictly (an unknown key is an error, as everywhere in baton.yaml) and written
 * back in the same shape: one form for baton.yaml's {@code experiments.definitions}, the admin API's request body and
 * the stored definition.
 *
 * <pre>{@code
 * baseAgent: learning
 * control: classic            # default: the first arm
 * flag: agent_orchestrator_v1 # optional: users without the flag get the control arm
 * arms:
 *   - { name: classic, agent: learning, weight: 90 }
 *   - { name: agent, agent: learning-v2, weight: 10 }
 * rollback: { window: 1h, minSample: 20, maxP95Latency: 1s, maxCostPerConversation: 0.02,
 *             minEvalPassRate: 0.90, maxErrorRate: 0.05 }
 * fallback: { agent: learning, afterFailures: 3 }
 * }</pre>
 */
public final class ExperimentDefinition {
    static final List<String> KEYS = List.of("baseAgent", "control", "flag", "arms", "rollback", "fallback");
    private static final List<String> ARM_KEYS = List.of("name", "agent", "weight");
    private static final List<String> ROLLBACK_KEYS = List.of(
            "window",
            "minSample",
            "minUsers",
            "maxP95Latency",
            "maxCostPerConversation",
            "minEvalPassRate",
            "maxErrorRate");
    private static final List<String> FALLBACK_KEYS = List.of("agent", "afterFailures");
    private static final ObjectMapper JSON = new ObjectMapper();

    private ExperimentDefinition() {}

    /**
     * Reads one experiment.
     *
     * @param path its name in messages, e.g. {@code experiments.definitions.learning-v2}
     * @throws IllegalArgumentException ({@link ConfigProblem} where a key is at fault) naming what is wrong
     */
    public static Experiment read(String id, JsonNode node, String path, long version) {
        ConfigSection s = ConfigSection.of(node, path, KEYS);
        if (s.isEmpty()) throw ConfigProblem.of(node, path + " must be a mapping with baseAgent and arms");
        String base = s.text("baseAgent");
        if (base == null || base.isBlank()) throw s.invalid("baseAgent", "is required");
        JsonNode armList = s.get("arms");
        if (!armList.isArray()) throw s.invalid("arms", "must be a list of {name, agent, weight}");
        List<Arm> arms = new ArrayList<>();
        for (int i = 0; i < armList.size(); i++) {
            ConfigSection a = ConfigSection.of(armList.get(i), s.qualified("arms") + "[" + i + "]", ARM_KEYS);
            String name = a.text("name");
            String agent = a.text("agent");
            if (name == null) throw ConfigProblem.of(armList.get(i), a.path() + ".name is required");
            if (agent == null) throw ConfigProblem.of(armList.get(i), a.path() + ".agent is required");
            try {
                arms.add(new Arm(name, agent, a.integer("weight", 0, 0)));
            } catch (IllegalArgumentException e) {
                throw ConfigProblem.of(armList.get(i), path + ": " + e.getMessage());
            }
        }
        RollbackTriggers triggers = rollback(s.section("rollback", ROLLBACK_KEYS));
        ConfigSection f = s.section("fallback", FALLBACK_KEYS);
        UserFallback fallback = null;
        if (!f.isEmpty()) {
            String agent = f.text("agent");
            if (agent == null) throw f.invalid("agent", "is required");
            fallback = new UserFallback(agent, f.integer("afterFailures", UserFallback.DEFAULT_AFTER_FAILURES, 1));
        }
        try {
            return new Experiment(id, base, s.text("control"), arms, s.text("flag"), triggers, fallback, version);
        } catch (IllegalArgumentException e) {
            throw ConfigProblem.of(node, path + ": " + e.getMessage());
        }
    }

    private static RollbackTriggers rollback(ConfigSection r) {
        RollbackTriggers d = RollbackTriggers.DEFAULTS;
        BigDecimal cost = r.decimal("maxCostPerConversation");
        try {
            return new RollbackTriggers(
                    r.duration("window", d.window()),
                    r.integer("minSample", d.minSample(), 1),
                    r.duration("maxP95Latency", d.maxP95Latency()),
                    cost == null ? d.maxCostPerConversation() : cost,
                    r.number("minEvalPassRate", d.minEvalPassRate()),
                    r.number("maxErrorRate", d.maxErrorRate()),
                    r.integer("minUsers", d.minUsers(), 1));
        } catch (IllegalArgumentException e) {
            if (e instanceof ConfigProblem) throw e;
            throw ConfigProblem.of(r.node(), r.path() + ": " + e.getMessage());
        }
    }

    /** The experiment as {@link #read} takes it (without its id and version). */
    public static ObjectNode write(Experiment e) {
        ObjectNode n = JSON.createObjectNode();
        n.put("baseAgent", e.baseAgentId());
        n.put("control", e.controlArm());
        if (e.flag() != null) n.put("flag", e.flag());
        ArrayNode arms = n.putArray("arms");
        for (Arm a : e.arms())
            arms.addObject().put("name", a.name()).put("agent", a.agentId()).put("weight", a.weight());
        RollbackTriggers t = e.triggers();
        n.putObject("rollback")
                .put("window", t.window().toString())
                .put("minSample", t.minSample())
                .put("minUsers", t.minUsers())
                .put("maxP95Latency", t.maxP95Latency().toString())
                .put("maxCostPerConversation", t.maxCostPerConversation())
                .put("minEvalPassRate", t.minEvalPassRate())
                .put("maxErrorRate", t.maxErrorRate());
        if (e.fallback() != null)
            n.putObject("fallback")
                    .put("agent", e.fallback().agentId())
                    .put("afterFailures", e.fallback().afterFailures());
        return n;
    }

    /** The stored text of {@link #write}. */
    public static String toJson(Experiment e) {
        return write(e).toString();
    }

    /** Reads what {@link #toJson} wrote. */
    public static Experiment fromJson(String id, String json, long version) {
        try {
            return read(id, JSON.readTree(json), "experiment " + id, version);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("stored experiment " + id + " is not JSON", e);
        }
    }
}
