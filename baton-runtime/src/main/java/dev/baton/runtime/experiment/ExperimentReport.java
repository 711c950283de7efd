package dev.baton.runtime.experiment;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An experiment with its arms side by side: each arm's metrics over the window, the triggers each treatment arm
 * breaks now (a breaking arm that still takes sessions is rolled back by the next evaluation), and the latest entries
 * of its audit trail.
 */
public record ExperimentReport(
        Experiment experiment,
        Instant since,
        List<ArmMetrics> arms,
        Map<String, List<TriggerFired>> breaking,
        List<OperatorAuditRecord> trail) {
    public ExperimentReport {
        arms = List.copyOf(arms);
        breaking = Map.copyOf(breaking);
        trail = List.copyOf(trail);
    }
}
