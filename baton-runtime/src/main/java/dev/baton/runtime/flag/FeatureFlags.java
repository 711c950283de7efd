package dev.baton.runtime.flag;

import dev.baton.core.auth.Principal;
import dev.baton.core.id.Ids;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.experiment.OperatorAuditRecord;
import dev.baton.runtime.experiment.SharedSnapshot;
import dev.baton.runtime.experiment.StickyHash;
import dev.baton.runtime.session.Sessions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feature flags: boolean or a percentage of users, sticky per (tenant, user, flag). A value set at runtime (shared
 * through the {@link FlagStore}, re-read by each instance at most every {@code refreshEvery}) wins over
 * {@code FF_<NAME>}, which wins over baton.yaml. Changing one needs {@value #ADMIN}; every change is audited.
 */
public final class FeatureFlags {
    private static final Logger log = LoggerFactory.getLogger(FeatureFlags.class);
    /** What changing flags needs. */
    public static final String ADMIN = "admin:flags";

    private final FlagSettings settings;
    private final FlagStore store;
    private final Clock clock;
    private final SharedSnapshot<Map<String, Integer>> overrides;

    public FeatureFlags(FlagSettings settings, FlagStore store, Clock clock, Duration refreshEvery) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.overrides = new SharedSnapshot<>("feature flags", store::overrides, Map.of(), refreshEvery);
    }

    /** Whether {@code name} is on for this caller; an unknown flag is off. */
    public boolean enabled(String name, Principal caller) {
        int pct = percentage(name);
        if (pct >= 100) return true;
        if (pct <= 0) return false;
        return StickyHash.unit(caller.tenantId(), caller.userId(), "flag:" + name) * 100 < pct;
    }

    /** The flag's percentage now (0 for an unknown flag). */
    public int percentage(String name) {
        Integer runtime = overrides().get(name);
        if (runtime != null) return runtime;
        Integer env = settings.environment().get(name);
        if (env != null) return env;
        return settings.configured().getOrDefault(name, 0);
    }

    /** Every known flag, by name. */
    public List<FlagState> all() {
        Map<String, Integer> runtime = overrides();
        TreeSet<String> names = new TreeSet<>(settings.configured().keySet());
        names.addAll(settings.environment().keySet());
        names.addAll(runtime.keySet());
        List<FlagState> out = new ArrayList<>();
        for (String n : names) out.add(state(n, runtime));
        return out;
    }

    /**
     * Sets a flag at runtime for every instance.
     *
     * @throws RefusalException {@code Forbidden} without {@value #ADMIN}; {@code InvalidInput} for a bad name;
     *     {@code InvalidValue} for a percentage outside 0..100
     */
    public FlagState set(Principal admin, String name, int percentage) {
        Sessions.require(admin, ADMIN);
        if (!FlagSettings.validName(name))
            throw RefusalException.invalidInput("flag name must be a-z, 0-9 and '_', starting with a letter");
        if (percentage < 0 || percentage > 100)
            throw new RefusalException(new Refusal.InvalidValue("percentage must be between 0 and 100"));
        int before = percentage(name);
        store.set(
                name,
                percentage,
                audit(name, "flag_set", admin, "{\"from\":" + before + ",\"to\":" + percentage + "}"));
        log.info("feature flag {} set to {}% by {} (was {}%)", name, percentage, admin.userId(), before);
        invalidate();
        return state(name, overrides());
    }

    /**
     * Removes a runtime value: the flag is back to {@code FF_<NAME>} or baton.yaml.
     *
     * @throws RefusalException {@code Forbidden}; {@code NotFound} when no runtime value was set
     */
    public FlagState clear(Principal admin, String name) {
        Sessions.require(admin, ADMIN);
        int before = percentage(name);
        if (!store.clear(name, audit(name, "flag_cleared", admin, "{\"from\":" + before + "}")))
            throw RefusalException.notFound("runtime value of flag " + name);
        invalidate();
        return state(name, overrides());
    }

    private OperatorAuditRecord audit(String name, String action, Principal admin, String detail) {
        return new OperatorAuditRecord(
                Ids.newId(), OperatorAuditRecord.flag(name), action, admin.userId(), detail, clock.instant());
    }

    private FlagState state(String name, Map<String, Integer> runtime) {
        if (runtime.containsKey(name)) return new FlagState(name, runtime.get(name), "runtime");
        if (settings.environment().containsKey(name))
            return new FlagState(name, settings.environment().get(name), "env");
        return new FlagState(name, settings.configured().getOrDefault(name, 0), "config");
    }

    private void invalidate() {
        overrides.invalidate();
    }

    private Map<String, Integer> overrides() {
        return overrides.get();
    }
}
