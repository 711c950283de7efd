package dev.baton.runtime.experiment;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An A/B experiment over a base agent: new sessions a user starts with {@code baseAgentId} go to the agent of the
 * arm the user falls in, sticky by (tenant, user, experiment) (see {@link StickyHash}).
 *
 * @param controlArm the arm that takes everyone when the treatment arms are rolled back
 * @param arms in order: each arm takes the next slice of [0, 1) in proportion to its weight, so moving weight from
 *     the control (listed first) to a treatment keeps that treatment's users where they were
 * @param flag a feature flag that must be on for the user, else the user gets the control arm; null for none
 * @param fallback where a user with repeated failures goes; null for no fallback
 * @param version bumped on every change; a change is applied only to the version it was made from
 */
public record Experiment(
        String id,
        String baseAgentId,
        String controlArm,
        List<Arm> arms,
        String flag,
        RollbackTriggers triggers,
        UserFallback fallback,
        long version) {

    static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,63}");
    /** Arms label metrics: a handful is an experiment, more is a mistake. */
    public static final int MAX_ARMS = 8;

    public Experiment {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(baseAgentId, "baseAgentId");
        Objects.requireNonNull(triggers, "triggers");
        arms = List.copyOf(arms);
        if (!ID.matcher(id).matches())
            throw new IllegalArgumentException("experiment id '" + id
                    + "' must be 1-64 of a-z, 0-9, '.', '_' and '-', starting with a letter or digit");
        if (arms.size() < 2 || arms.size() > MAX_ARMS)
            throw new IllegalArgumentException("experiment " + id + " needs 2 to " + MAX_ARMS + " arms");
        Set<String> names = new HashSet<>();
        for (Arm a : arms)
            if (!names.add(a.name()))
                throw new IllegalArgumentException("experiment " + id + ": arm '" + a.name() + "' is listed twice");
        if (controlArm == null) controlArm = arms.get(0).name();
        if (!names.contains(controlArm))
            throw new IllegalArgumentException(
                    "experiment " + id + ": control arm '" + controlArm + "' is not one of its arms " + names);
    }

    public Optional<Arm> arm(String name) {
        return arms.stream().filter(a -> a.name().equals(name)).findFirst();
    }

    public Arm control() {
        return arm(controlArm).orElseThrow();
    }

    /** The arms other than the control. */
    public List<Arm> treatments() {
        return arms.stream().filter(a -> !a.name().equals(controlArm)).toList();
    }

    /** True while some treatment arm takes new sessions. */
    public boolean treating() {
        return treatments().stream().anyMatch(a -> a.weight() > 0);
    }

    /** The arm at {@code point} in [0, 1); the control when every weight is 0. */
    public Arm armAt(double point) {
        long total = arms.stream().mapToLong(Arm::weight).sum();
        if (total == 0) return control();
        double end = 0;
        for (Arm a : arms) {
            end += (double) a.weight() / total;
            if (a.weight() > 0 && point < end) return a;
        }
        // rounding left the top of the range uncovered: it belongs to the last arm that takes anyone
        return arms.reversed().stream().filter(a -> a.weight() > 0).findFirst().orElseThrow();
    }

    /**
     * This experiment with some arms' weights changed (the others kept), one version on.
     *
     * @throws IllegalArgumentException for an arm it does not have, or a weight out of range
     */
    public Experiment withWeights(Map<String, Integer> weights) {
        for (String name : weights.keySet())
            if (arm(name).isEmpty())
                throw new IllegalArgumentException("experiment " + id + " has no arm '" + name + "'");
        List<Arm> changed = arms.stream()
                .map(a -> weights.containsKey(a.name()) ? a.withWeight(weights.get(a.name())) : a)
                .toList();
        return new Experiment(id, baseAgentId, controlArm, changed, flag, triggers, fallback, version + 1);
    }

    /** The weight of each arm, in order. */
    public Map<String, Integer> weights() {
        Map<String, Integer> w = new LinkedHashMap<>();
        arms.forEach(a -> w.put(a.name(), a.weight()));
        return w;
    }

    /** Every agent the experiment may route a session to. */
    public Set<String> agentIds() {
        Set<String> ids = new HashSet<>();
        arms.forEach(a -> ids.add(a.agentId()));
        if (fallback != null) ids.add(fallback.agentId());
        return ids;
    }
}
