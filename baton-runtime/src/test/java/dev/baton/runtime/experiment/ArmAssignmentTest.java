package dev.baton.runtime.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArmAssignmentTest {
    static Experiment split(int control, int treatment) {
        return new Experiment(
                "orchestrator-v1",
                "learning",
                null,
                List.of(new Arm("classic", "learning", control), new Arm("agent", "learning-v2", treatment)),
                null,
                RollbackTriggers.DEFAULTS,
                null,
                1);
    }

    static String armOf(Experiment e, String tenant, String user) {
        return e.armAt(StickyHash.unit(tenant, user, e.id())).name();
    }

    @Test
    void a_user_gets_the_same_arm_every_time() {
        Experiment e = split(50, 50);
        for (int u = 0; u < 200; u++) {
            String first = armOf(e, "acme", "user-" + u);
            for (int again = 0; again < 5; again++)
                assertThat(armOf(e, "acme", "user-" + u)).isEqualTo(first);
        }
    }

    @Test
    void the_hash_is_fixed_across_runs_and_jvms() {
        // SHA-256 of "acme\0alice\0orchestrator-v1": a change of this number moves every user to another arm
        assertThat(StickyHash.unit("acme", "alice", "orchestrator-v1")).isEqualTo(0.16285890882049237);
        assertThat(StickyHash.unit("acme", "alice", "x")).isNotEqualTo(StickyHash.unit("acme", "alic", "ex"));
        assertThat(StickyHash.unit("a|b", "c", "x")).isNotEqualTo(StickyHash.unit("a", "b|c", "x"));
    }

    @Test
    void ten_percent_of_many_users_fall_in_the_ten_percent_arm() {
        Experiment e = split(90, 10);
        Map<String, Integer> counts = new HashMap<>();
        int users = 20_000;
        for (int u = 0; u < users; u++) counts.merge(armOf(e, "acme", "user-" + u), 1, Integer::sum);
        // binomial(20000, 0.1): the standard deviation is 42 users; 600 is over 14 of them
        assertThat(counts.get("agent")).isBetween(1_400, 2_600);
        assertThat(counts.get("classic") + counts.get("agent")).isEqualTo(users);
    }

    @Test
    void the_same_user_lands_differently_in_another_tenant_or_experiment() {
        int differ = 0;
        for (int u = 0; u < 1_000; u++) {
            String user = "user-" + u;
            if (StickyHash.unit("acme", user, "one") < 0.5 != StickyHash.unit("globex", user, "one") < 0.5) differ++;
        }
        assertThat(differ).isBetween(400, 600);
    }

    @Test
    void a_staged_rollout_keeps_every_treated_user_treated() {
        Experiment ten = split(90, 10);
        Experiment fifty = ten.withWeights(Map.of("classic", 50, "agent", 50));
        Experiment all = fifty.withWeights(Map.of("classic", 0, "agent", 100));
        int treatedAtTen = 0;
        for (int u = 0; u < 5_000; u++) {
            String user = "user-" + u;
            if (armOf(ten, "acme", user).equals("agent")) {
                treatedAtTen++;
                assertThat(armOf(fifty, "acme", user)).isEqualTo("agent");
            }
            assertThat(armOf(all, "acme", user)).isEqualTo("agent");
        }
        assertThat(treatedAtTen).isPositive();
        assertThat(fifty.version()).isEqualTo(2);
    }

    @Test
    void with_every_weight_zero_everyone_gets_the_control() {
        Experiment off = split(0, 0);
        for (int u = 0; u < 100; u++)
            assertThat(armOf(off, "acme", "user-" + u)).isEqualTo("classic");
        assertThat(off.treating()).isFalse();
    }

    @Test
    void a_rolled_back_treatment_sends_its_users_to_the_control() {
        Experiment e = split(50, 50).withWeights(Map.of("agent", 0));
        for (int u = 0; u < 200; u++) assertThat(armOf(e, "acme", "user-" + u)).isEqualTo("classic");
    }

    @Test
    void weights_for_unknown_arms_or_out_of_range_are_refused() {
        Experiment e = split(50, 50);
        assertThatThrownBy(() -> e.withWeights(Map.of("agnet", 10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no arm 'agnet'");
        assertThatThrownBy(() -> e.withWeights(Map.of("agent", -1))).hasMessageContaining("weight must be between");
        assertThatThrownBy(() -> new Experiment(
                        "x", "learning", "nope", split(1, 1).arms(), null, RollbackTriggers.DEFAULTS, null, 1))
                .hasMessageContaining("control arm 'nope'");
        assertThatThrownBy(() -> new Experiment(
                        "x",
                        "learning",
                        null,
                        List.of(new Arm("a", "learning", 1), new Arm("a", "learning-v2", 1)),
                        null,
                        RollbackTriggers.DEFAULTS,
                        null,
                        1))
                .hasMessageContaining("listed twice");
    }
}
