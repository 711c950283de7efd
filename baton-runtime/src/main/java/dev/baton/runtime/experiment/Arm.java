package dev.baton.runtime.experiment;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One arm of an experiment: the agent (its prompt, model, tools and limits, from its agent file) the arm's users
 * talk to, and its weight relative to the other arms.
 *
 * @param name short and stable: it labels metrics and is recorded with every session routed to the arm
 * @param weight 0 takes the arm out of new routing (its running sessions finish on it)
 */
public record Arm(String name, String agentId, int weight) {
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,39}");
    /** Weights are relative; this bound keeps the sum far from overflow. */
    public static final int MAX_WEIGHT = 10_000;

    public Arm {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(agentId, "agentId");
        if (!NAME.matcher(name).matches())
            throw new IllegalArgumentException(
                    "arm name '" + name + "' must be 1-40 of a-z, 0-9, '_' and '-', starting with a letter or digit");
        if (agentId.isBlank()) throw new IllegalArgumentException("arm " + name + ": agent is required");
        if (weight < 0 || weight > MAX_WEIGHT)
            throw new IllegalArgumentException("arm " + name + ": weight must be between 0 and " + MAX_WEIGHT);
    }

    public Arm withWeight(int newWeight) {
        return new Arm(name, agentId, newWeight);
    }
}
