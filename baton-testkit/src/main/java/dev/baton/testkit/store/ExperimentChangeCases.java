package dev.baton.testkit.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.id.Ids;
import dev.baton.runtime.experiment.Experiment;
import dev.baton.runtime.experiment.OperatorAuditRecord;
import dev.baton.runtime.experiment.RollbackTriggers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The {@link ExperimentStoreContract}'s cases for changing a definition: it reads back as created, an id is taken once,
 * and of changes made from the same version, one at a time or all at once, exactly one is applied and audited.
 */
abstract class ExperimentChangeCases extends ExperimentStoreFixture {
    @Test
    void a_definition_reads_back_as_created_and_an_id_is_taken_once() {
        Experiment e = experiment("roundtrip-" + suffix(), "tutor-a", 90, 10, RollbackTriggers.DEFAULTS);
        assertThat(store().create(e, audit(e, "created"))).isTrue();
        assertThat(store().create(e, audit(e, "created"))).isFalse();

        assertThat(store().experiment(e.id())).contains(e);
        assertThat(store().experiments()).contains(e);
        assertThat(store().auditTrail(OperatorAuditRecord.experiment(e.id()), 10))
                .singleElement()
                .extracting(OperatorAuditRecord::action)
                .isEqualTo("created");
    }

    @Test
    void of_two_changes_made_from_the_same_version_only_one_is_applied_and_audited() {
        Experiment e = experiment("cas-" + suffix(), "tutor-b", 90, 10, RollbackTriggers.DEFAULTS);
        store().create(e, audit(e, "created"));

        boolean first = store().replace(
                        e.withWeights(Map.of("control", 50, "treatment", 50)),
                        e.version(),
                        audit(e, "weights_changed"));
        boolean second = store().replace(e.withWeights(Map.of("treatment", 0)), e.version(), audit(e, "rolled_back"));

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(store().experiment(e.id()).orElseThrow().weights())
                .containsExactly(Map.entry("control", 50), Map.entry("treatment", 50));
        assertThat(store().auditTrail(OperatorAuditRecord.experiment(e.id()), 10))
                .extracting(OperatorAuditRecord::action)
                .containsExactly("weights_changed", "created");
    }

    @Test
    void of_many_changes_made_at_once_from_the_same_version_exactly_one_is_applied() throws Exception {
        Experiment e = experiment("race-" + suffix(), "tutor-f", 90, 10, RollbackTriggers.DEFAULTS);
        store().create(e, audit(e, "created"));
        CountDownLatch go = new CountDownLatch(1);
        List<Boolean> applied;
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<CompletableFuture<Boolean>> changes = IntStream.range(0, 8)
                    .mapToObj(i -> CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    go.await();
                                } catch (InterruptedException ex) {
                                    Thread.currentThread().interrupt();
                                }
                                OperatorAuditRecord change = new OperatorAuditRecord(
                                        Ids.newId(),
                                        OperatorAuditRecord.experiment(e.id()),
                                        "weights_changed",
                                        "ops-" + i,
                                        "{}",
                                        T0.plusSeconds(1 + i));
                                return store().replace(e.withWeights(Map.of("treatment", i)), e.version(), change);
                            },
                            threads))
                    .toList();
            go.countDown();
            applied = new ArrayList<>();
            for (CompletableFuture<Boolean> f : changes) applied.add(f.get());
        }

        assertThat(applied).containsOnlyOnce(true);
        int winner = applied.indexOf(true);
        Experiment stored = store().experiment(e.id()).orElseThrow();
        assertThat(stored.version()).isEqualTo(e.version() + 1);
        assertThat(stored.weights()).containsEntry("treatment", winner);
        assertThat(store().changedAt(e.id())).contains(T0.plusSeconds(1 + winner));
        assertThat(store().auditTrail(OperatorAuditRecord.experiment(e.id()), 10))
                .extracting(OperatorAuditRecord::actor)
                .containsExactly("ops-" + winner, "ops");
        // the loser's version is gone: a change from it is refused too
        assertThat(store().replace(e.withWeights(Map.of("treatment", 1)), e.version(), audit(e, "weights_changed")))
                .isFalse();
    }
}
