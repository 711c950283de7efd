package dev.baton.runtime.experiment;

import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.flag.FeatureFlags;
import dev.baton.runtime.flag.FlagSettings;
import dev.baton.runtime.flag.FlagStore;
import java.time.Clock;

/**
 * The feature flags and experiments a runtime is built with, from baton.yaml's {@code experiments} and {@code flags}
 * and the stores that share them across instances (a runtime without an experiment store may define none).
 */
public record ExperimentSetup(FeatureFlags flags, Experiments experiments) {

    public static ExperimentSetup of(
            ExperimentSettings settings,
            FlagSettings flagSettings,
            ExperimentStore experimentStore,
            FlagStore flagStore,
            AgentRegistry agents,
            ExperimentListener listener,
            Clock clock) {
        if (experimentStore == null && !settings.definitions().isEmpty())
            throw new ConfigException("experiments are defined but this runtime has no experimentStore to keep them");
        FeatureFlags flags = new FeatureFlags(
                flagSettings, flagStore != null ? flagStore : FlagStore.inMemory(), clock, settings.refreshEvery());
        Experiments experiments = new Experiments(
                experimentStore != null ? experimentStore : ExperimentStore.none(),
                agents,
                flags,
                listener,
                clock,
                settings.refreshEvery());
        return new ExperimentSetup(flags, experiments);
    }
}
