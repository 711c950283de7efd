package dev.baton.testkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.id.Ids;
import dev.baton.runtime.usage.PeriodSpend;
import dev.baton.runtime.usage.UsageDimension;
import dev.baton.runtime.usage.UsagePeriod;
import dev.baton.runtime.usage.UsageStore;
import dev.baton.runtime.usage.UsageTotals;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link UsageStore} must do with the {@link ConversationStore} that records the usage: reports grouped by
 * user, agent, model and day, per tenant and half-open period; a user's and a tenant's spend today and this month at any
 * slot-aligned day and month. Usage is written the way the turn loop writes it (with the turn's end, or recorded late);
 * each test uses a fresh tenant so tests keep apart. Run by baton-store-jdbc against SQLite and PostgreSQL.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class UsageStoreContract {
    protected static final Instant DAY1 = Instant.parse("2025-03-01T00:00:00Z");
    protected static final Instant DAY2 = Instant.parse("2025-03-02T00:00:00Z");

    /** The conversation store that records the usage of model calls. */
    protected abstract ConversationStore conversations();

    /** The usage store under test, reading what {@link #conversations()} recorded. */
    protected abstract UsageStore usage();

    @Test
    void report_groups_tokens_and_cost_by_user_agent_model_and_day() {
        String tenant = newTenant();
        Session aliceTutor = session(tenant, "alice", "tutor", DAY1);
        Session aliceCoach = session(tenant, "alice", "coach", DAY1);
        Session bob = session(tenant, "bob", "tutor", DAY1);
        turn(aliceTutor, DAY1.plusSeconds(60), call("openai", "gpt-4o-mini", 100, 10, "0.0010"));
        turn(
                aliceTutor,
                DAY2.plusSeconds(60),
                call("openai", "gpt-4o-mini", 200, 20, "0.0020"),
                call("anthropic", "claude-sonnet-4", 50, 5, "0.0100"));
        turn(aliceCoach, DAY2.plusSeconds(120), call("openai", "gpt-4o", 300, 30, "0.0300"));
        turn(bob, DAY1.plusSeconds(30), call("openai", "gpt-4o-mini", 1_000, 100, "0.0040"));
        UsagePeriod march = new UsagePeriod(DAY1, DAY1.plusSeconds(31L * 86_400));

        assertThat(usage().report(tenant, march, List.of(UsageDimension.USER)))
                .extracting(
                        t -> t.group().get(UsageDimension.USER),
                        UsageTotals::calls,
                        UsageTotals::inputTokens,
                        UsageTotals::outputTokens,
                        t -> t.costUsd().stripTrailingZeros().toPlainString())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("alice", 4L, 650L, 65L, "0.043"),
                        org.assertj.core.groups.Tuple.tuple("bob", 1L, 1_000L, 100L, "0.004"));
        assertThat(usage().report(tenant, march, List.of(UsageDimension.AGENT)))
                .extracting(t -> t.group().get(UsageDimension.AGENT), UsageTotals::calls)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("coach", 1L),
                        org.assertj.core.groups.Tuple.tuple("tutor", 4L));
        assertThat(usage().report(tenant, march, List.of(UsageDimension.MODEL)))
                .extracting(t -> t.group().get(UsageDimension.MODEL), UsageTotals::inputTokens)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("anthropic:claude-sonnet-4", 50L),
                        org.assertj.core.groups.Tuple.tuple("openai:gpt-4o", 300L),
                        org.assertj.core.groups.Tuple.tuple("openai:gpt-4o-mini", 1_300L));
        assertThat(usage().report(tenant, march, List.of(UsageDimension.DAY)))
                .extracting(
                        t -> t.group().get(UsageDimension.DAY),
                        t -> t.costUsd().stripTrailingZeros().toPlainString())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("2025-03-01", "0.005"),
                        org.assertj.core.groups.Tuple.tuple("2025-03-02", "0.042"));
    }

    @Test
    void report_can_group_by_several_dimensions_or_none() {
        String tenant = newTenant();
        Session s = session(tenant, "carol", "tutor", DAY1);
        turn(s, DAY1.plusSeconds(5), call("openai", "gpt-4o-mini", 10, 1, "0.5"));
        turn(s, DAY2.plusSeconds(5), call("openai", "gpt-4o-mini", 20, 2, "0.25"));
        UsagePeriod both = new UsagePeriod(DAY1, DAY2.plusSeconds(86_400));

        List<UsageTotals> byUserAndDay = usage().report(tenant, both, List.of(UsageDimension.USER, UsageDimension.DAY));
        assertThat(byUserAndDay).hasSize(2);
        assertThat(byUserAndDay.get(0).group())
                .isEqualTo(Map.of(UsageDimension.USER, "carol", UsageDimension.DAY, "2025-03-01"));

        List<UsageTotals> total = usage().report(tenant, both, List.of());
        assertThat(total).singleElement().satisfies(t -> {
            assertThat(t.calls()).isEqualTo(2);
            assertThat(t.inputTokens()).isEqualTo(30);
            assertThat(t.costUsd()).isEqualByComparingTo("0.75");
        });
    }

    @Test
    void report_sums_cached_input_tokens_apart_from_all_input_tokens() {
        String tenant = newTenant();
        Session s = session(tenant, "ivan", "tutor", DAY1);
        turn(
                s,
                DAY1.plusSeconds(5),
                cachedCall("openai", "gpt-4o-mini", 1_000, 800, 10, "0.001"),
                call("openai", "gpt-4o-mini", 50, 5, "0.001"));
        turn(s, DAY1.plusSeconds(9), cachedCall("anthropic", "claude-sonnet-4", 400, 300, 20, "0.002"));
        UsagePeriod day = new UsagePeriod(DAY1, DAY2);

        assertThat(usage().report(tenant, day, List.of(UsageDimension.MODEL)))
                .extracting(
                        t -> t.group().get(UsageDimension.MODEL),
                        UsageTotals::inputTokens,
                        UsageTotals::cachedInputTokens)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("anthropic:claude-sonnet-4", 400L, 300L),
                        org.assertj.core.groups.Tuple.tuple("openai:gpt-4o-mini", 1_050L, 800L));
        assertThat(usage().report(tenant, day, List.of()))
                .singleElement()
                .satisfies(t -> assertThat(t.cachedInputTokens()).isEqualTo(1_100));
    }

    @Test
    void report_sees_only_its_tenant_and_its_half_open_period() {
        String tenant = newTenant();
        String other = newTenant();
        turn(session(tenant, "dave", "tutor", DAY1), DAY2, call("openai", "gpt-4o-mini", 10, 1, "1"));
        turn(session(other, "erin", "tutor", DAY1), DAY1.plusSeconds(1), call("openai", "gpt-4o-mini", 10, 1, "1"));

        // DAY2 is the exclusive end of the first period and the inclusive start of the second
        assertThat(usage().report(tenant, new UsagePeriod(DAY1, DAY2), List.of(UsageDimension.USER)))
                .isEmpty();
        assertThat(usage().report(tenant, new UsagePeriod(DAY2, DAY2.plusSeconds(1)), List.of(UsageDimension.USER)))
                .extracting(t -> t.group().get(UsageDimension.USER))
                .containsExactly("dave");
        assertThat(usage().report(tenant, new UsagePeriod(DAY1, DAY2), List.of()))
                .singleElement()
                .satisfies(t -> {
                    assertThat(t.calls()).isZero();
                    assertThat(t.costUsd()).isZero();
                });
    }

    @Test
    void usage_keeps_its_agent_after_the_session_is_deleted() {
        String tenant = newTenant();
        Session s = session(tenant, "frank", "coach", DAY1);
        turn(s, DAY1.plusSeconds(1), call("openai", "gpt-4o-mini", 10, 1, "0.01"));

        assertThat(conversations().deleteSession("frank", s.id())).isTrue();

        assertThat(usage().report(tenant, new UsagePeriod(DAY1, DAY2), List.of(UsageDimension.AGENT)))
                .extracting(t -> t.group().get(UsageDimension.AGENT), UsageTotals::calls)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("coach", 1L));
    }

    @Test
    void spend_sums_a_users_and_a_tenants_cost_today_and_this_month() {
        String tenant = newTenant();
        Instant monthStart = Instant.parse("2025-03-01T00:00:00Z");
        Instant today = Instant.parse("2025-03-15T00:00:00Z");
        Session grace = session(tenant, "grace", "tutor", monthStart);
        Session heidi = session(tenant, "heidi", "tutor", monthStart);
        turn(
                session(tenant, "grace", "tutor", monthStart),
                monthStart.minusSeconds(1),
                call("openai", "gpt-4o", 1, 1, "100")); // last month: not counted
        turn(grace, monthStart.plusSeconds(10), call("openai", "gpt-4o", 1, 1, "0.10"));
        turn(
                grace,
                today.plusSeconds(10),
                call("openai", "gpt-4o", 1, 1, "0.02"),
                call("openai", "gpt-4o", 1, 1, "0.03"));
        turn(heidi, today.plusSeconds(20), call("openai", "gpt-4o", 1, 1, "1.00"));

        PeriodSpend graceSpend = usage().userSpend(tenant, "grace", today, monthStart);
        assertThat(graceSpend.today()).isEqualByComparingTo("0.05");
        assertThat(graceSpend.thisMonth()).isEqualByComparingTo("0.15");

        PeriodSpend tenantSpend = usage().tenantSpend(tenant, today, monthStart);
        assertThat(tenantSpend.today()).isEqualByComparingTo("1.05");
        assertThat(tenantSpend.thisMonth()).isEqualByComparingTo("1.15");

        assertThat(usage().userSpend(tenant, "nobody", today, monthStart).thisMonth())
                .isZero();
    }

    @Test
    void spend_read_from_the_totals_is_the_sum_of_recorded_usage_across_slot_day_and_month_boundaries() {
        String tenant = newTenant();
        Session alice = session(tenant, "alice", "tutor", DAY1);
        Session bob = session(tenant, "bob", "tutor", DAY1);
        Session elsewhere = session(newTenant(), "alice", "tutor", DAY1);
        // April in Kolkata (+05:30) begins at 18:30 UTC on March 31st, in the middle of a UTC hour; each cost is a
        // power of two, so a row counted in the wrong period, twice or not at all changes the sum visibly
        List<UsageRecord> recorded = List.of(
                row(alice, "2025-03-31T18:29:59.999999Z", "64"), // March in Kolkata
                row(alice, "2025-03-31T18:30:00Z", "0.01"), // April 1st's first moment
                row(alice, "2025-04-01T18:14:59.999999Z", "0.02"),
                row(alice, "2025-04-01T18:29:59.999999Z", "0.04"), // April 1st's last moment
                row(bob, "2025-04-01T18:29:00Z", "0.08"),
                row(alice, "2025-04-01T18:30:00Z", "0.16"), // April 2nd
                row(alice, "2025-04-01T18:44:59.999999Z", "0.32"), // same slot
                row(bob, "2025-04-01T18:45:00Z", "0.64"), // the next slot
                row(alice, "2025-04-02T18:29:59Z", "1.28"),
                row(bob, "2025-04-02T18:30:00Z", "2.56"), // April 3rd
                row(elsewhere, "2025-04-02T18:30:00Z", "128")); // another tenant
        // one turn whose calls span a slot boundary, the rest written late; a retried late write counts once
        conversations().completeTurn(alice.userId(), turnOf(alice, recorded.get(2), recorded.get(3)));
        conversations().recordUsage(recorded.subList(0, 2));
        conversations().recordUsage(recorded.subList(4, 8));
        conversations().recordUsage(recorded.subList(4, recorded.size()));
        conversations().recordUsage(recorded.subList(3, 6));

        ZoneId kolkata = ZoneId.of("Asia/Kolkata");
        Instant monthStart = LocalDate.of(2025, 4, 1).atStartOfDay(kolkata).toInstant();
        for (int day = 1; day <= 3; day++) {
            Instant dayStart = LocalDate.of(2025, 4, day).atStartOfDay(kolkata).toInstant();
            for (String user : List.of("alice", "bob")) {
                assertThat(usage().userSpend(tenant, user, dayStart, monthStart))
                        .as("%s on April %d", user, day)
                        .satisfies(spend -> assertSpend(
                                spend, sum(recorded, tenant, user, dayStart), sum(recorded, tenant, user, monthStart)));
            }
            assertThat(usage().tenantSpend(tenant, dayStart, monthStart))
                    .as("the tenant on April %d", day)
                    .satisfies(spend -> assertSpend(
                            spend, sum(recorded, tenant, null, dayStart), sum(recorded, tenant, null, monthStart)));
        }
        // spelled out once, so the sums above are known to be the intended ones
        Instant april2 = LocalDate.of(2025, 4, 2).atStartOfDay(kolkata).toInstant();
        assertSpend(usage().userSpend(tenant, "alice", april2, monthStart), "1.76", "1.83");
        assertSpend(usage().tenantSpend(tenant, april2, monthStart), "4.96", "5.11");
    }

    @Test
    void spend_wants_the_day_and_month_to_start_at_a_slot() {
        Instant notASlot = DAY1.plus(Duration.ofMinutes(7));
        assertThatThrownBy(() -> usage().tenantSpend("t", notASlot, DAY1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("15 minutes");
        assertThatThrownBy(() -> usage().userSpend("t", "", DAY1, DAY1)).isInstanceOf(IllegalArgumentException.class);
    }

    protected static void assertSpend(PeriodSpend spend, String today, String thisMonth) {
        assertSpend(spend, new BigDecimal(today), new BigDecimal(thisMonth));
    }

    private static void assertSpend(PeriodSpend spend, BigDecimal today, BigDecimal thisMonth) {
        assertThat(spend.today()).as("today").isEqualByComparingTo(today);
        assertThat(spend.thisMonth()).as("this month").isEqualByComparingTo(thisMonth);
    }

    /** The cost of the rows of the tenant (and user, unless null) recorded since {@code from}, summed in Java. */
    protected static BigDecimal sum(List<UsageRecord> rows, String tenant, String user, Instant from) {
        return rows.stream()
                .filter(u -> u.tenantId().equals(tenant)
                        && (user == null || u.userId().equals(user)))
                .filter(u -> !u.createdAt().isBefore(from))
                .map(UsageRecord::costUsd)
                .reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    protected static UsageRecord row(Session s, String at, String cost) {
        return new UsageRecord(
                Ids.newId(),
                s.tenantId(),
                s.userId(),
                s.id(),
                null,
                "openai",
                "gpt-4o",
                1,
                1,
                0,
                new BigDecimal(cost),
                10,
                Instant.parse(at));
    }

    /** A turn of the session that made the given model calls, answered when the first was made. */
    protected static TurnRecord turnOf(Session s, UsageRecord... rows) {
        Instant at = rows[0].createdAt();
        Message answer = new Message(
                Ids.newId(), s.id(), s.userId(), 0, MessageRole.ASSISTANT, "ok", MessageStatus.COMPLETE, "m", at);
        List<UsageRecord> linked = java.util.Arrays.stream(rows)
                .map(u -> u.withMessageId(answer.id()))
                .toList();
        return new TurnRecord(answer, List.of(), linked);
    }

    protected static String newTenant() {
        return "tenant-" + Ids.newId();
    }

    protected Session session(String tenant, String user, String agent, Instant at) {
        Session s = Session.start(Ids.newId(), tenant, user, agent, null, at);
        conversations().createSession(s);
        return s;
    }

    /** A model call's usage; the turn fills in who and when. */
    protected record Call(String provider, String model, long in, long cached, long out, String cost) {}

    protected static Call call(String provider, String model, long in, long out, String cost) {
        return new Call(provider, model, in, 0, out, cost);
    }

    /** A call that read {@code cached} of its {@code in} tokens from the provider's prompt cache. */
    protected static Call cachedCall(String provider, String model, long in, long cached, long out, String cost) {
        return new Call(provider, model, in, cached, out, cost);
    }

    protected void turn(Session s, Instant at, Call... calls) {
        Message answer = new Message(
                Ids.newId(), s.id(), s.userId(), 0, MessageRole.ASSISTANT, "ok", MessageStatus.COMPLETE, "m", at);
        List<UsageRecord> rows = java.util.Arrays.stream(calls)
                .map(c -> new UsageRecord(
                        Ids.newId(),
                        s.tenantId(),
                        s.userId(),
                        s.id(),
                        answer.id(),
                        c.provider(),
                        c.model(),
                        c.in(),
                        c.out(),
                        c.cached(),
                        new BigDecimal(c.cost()),
                        10,
                        at))
                .toList();
        conversations().completeTurn(s.userId(), new TurnRecord(answer, List.of(), rows));
    }
}
