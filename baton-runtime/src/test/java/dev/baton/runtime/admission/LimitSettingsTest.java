package dev.baton.runtime.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.runtime.config.Yaml;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LimitSettingsTest {

    @Test
    void without_a_section_users_get_twenty_a_minute_and_a_hundred_an_hour_in_process() {
        RateLimitSettings s = RateLimitSettings.parse(MissingNode.getInstance(), Map.of());

        assertThat(s.enabled()).isTrue();
        assertThat(s.perUser())
                .containsExactly(
                        new RatePolicy("per-minute", 20, Duration.ofMinutes(1)),
                        new RatePolicy("per-hour", 100, Duration.ofHours(1)));
        assertThat(s.perTenant()).isEmpty();
        assertThat(s.redisUrl()).isNull();
    }

    @Test
    void the_environment_points_the_buckets_at_redis_and_zero_turns_a_policy_off() {
        RateLimitSettings s = RateLimitSettings.parse(
                yaml("perUser: {perHour: 0}\nperTenant: {perMinute: 300}\nredisUrl: redis://from-yaml:6379"),
                Map.of("BATON_REDIS_URL", "redis://from-env:6379"));

        assertThat(s.perUser()).extracting(RatePolicy::name).containsExactly("per-minute");
        assertThat(s.perTenant())
                .extracting(RatePolicy::name, RatePolicy::quota)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("tenant-per-minute", 300L));
        assertThat(s.redisUrl()).isEqualTo("redis://from-env:6379");
    }

    @Test
    void decisions_render_the_draft_ratelimit_fields() {
        RatePolicy minute = new RatePolicy("per-minute", 20, Duration.ofMinutes(1));
        RatePolicy hour = new RatePolicy("per-hour", 100, Duration.ofHours(1));

        Map<String, String> headers =
                new RateDecision(false, List.of(minute, hour), minute, 0, Duration.ofMillis(11_200)).quotaFields();

        assertThat(headers)
                .containsEntry("RateLimit-Policy", "\"per-minute\";q=20;w=60, \"per-hour\";q=100;w=3600")
                .containsEntry("RateLimit", "\"per-minute\";r=0;t=12");
        assertThat(RateDecision.UNLIMITED.quotaFields()).isEmpty();
    }

    @Test
    void budgets_read_usd_as_exact_decimals_and_reject_nonsense() {
        BudgetSettings b = BudgetSettings.parse(
                yaml("perUser: {dailyUsd: 0.10}\nperTenant: {monthlyUsd: 1000}\ntimeZone: Europe/Paris"));

        assertThat(b.userDailyUsd()).isEqualByComparingTo("0.10");
        assertThat(b.userMonthlyUsd()).isNull();
        assertThat(b.tenantMonthlyUsd()).isEqualByComparingTo("1000");
        assertThat(b.limitsUsers()).isTrue();
        assertThat(b.timeZone()).isEqualTo(ZoneId.of("Europe/Paris"));
        assertThat(BudgetSettings.parse(MissingNode.getInstance()).limitsUsers())
                .isFalse();

        assertThatThrownBy(() -> BudgetSettings.parse(yaml("perUser: {dailyUsd: -1}")))
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> BudgetSettings.parse(yaml("perUser: {dailyUsd: lots}")))
                .hasMessageContaining("budgets.perUser.dailyUsd must be a number");
        assertThatThrownBy(() -> BudgetSettings.parse(yaml("timeZone: Mars/Olympus")))
                .hasMessageContaining("time zone");
        assertThat(BudgetSettings.parse(yaml("timeZone: \"+05:45\"")).timeZone())
                .isEqualTo(ZoneId.of("+05:45"));
        // spending is totalled per 15 minutes of UTC time: a day starting between two slots could not be counted
        assertThatThrownBy(() -> BudgetSettings.parse(yaml("timeZone: \"+05:53\"")))
                .hasMessageContaining("budgets.timeZone must be offset from UTC by a whole number of 15 minutes");
        assertThatThrownBy(() -> RateLimitSettings.parse(yaml("perUser: {perMinute: -5}"), Map.of()))
                .hasMessageContaining(">= 0");
    }

    @Test
    void budgets_read_how_long_a_dead_instances_reservations_count_and_where_shared_ones_live() {
        BudgetSettings defaults = BudgetSettings.parse(yaml("perUser: {dailyUsd: 1}"));
        assertThat(defaults.reservationMargin()).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.redisKeyPrefix()).isEqualTo("baton:budget:");

        BudgetSettings set = BudgetSettings.parse(yaml("reservationMargin: 2m\nredisKeyPrefix: \"tenant-a:\""));
        assertThat(set.reservationMargin()).isEqualTo(Duration.ofMinutes(2));
        assertThat(set.redisKeyPrefix()).isEqualTo("tenant-a:");

        assertThatThrownBy(() -> BudgetSettings.parse(yaml("reservationMargin: -5s")))
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> BudgetSettings.parse(yaml("reservationMargin: soon")))
                .hasMessageContaining("is not a duration");
    }

    private static JsonNode yaml(String text) {
        return Yaml.parse(text);
    }
}
