package dev.baton.store.jdbc.usage;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.baton.runtime.usage.UsageTotals;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcConversationStore;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What {@link JdbcUsageStore} must do on every database. Usage is written the way the turn loop writes it (through
 * {@link JdbcConversationStore#completeTurn}); each test uses a fresh tenant so tests keep apart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class UsageStoreContract {
    static final Instant DAY1 = Instant.parse("2025-03-01T00:00:00Z");
    static final Instant DAY2 = Instant.parse("2025-03-02T00:00:00Z");

    Database db;
    JdbcConversationStore conversations;
    JdbcUsageStore usage;

    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void open() {
        db = Database.open(createDatabase());
        conversations = new JdbcConversationStore(db);
        usage = new JdbcUsageStore(db);
    }

    @AfterAll
    void close() {
        if (db != null) db.close();
        dropDatabase();
    }

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

        assertThat(usage.report(tenant, march, List.of(UsageDimension.USER)))
                .extracting(
                        t -> t.group().get(UsageDimension.USER),
                        UsageTotals::calls,
                        UsageTotals::inputTokens,
                        UsageTotals::outputTokens,
                        t -> t.costUsd().stripTrailingZeros().toPlainString())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("alice", 4L, 650L, 65L, "0.043"),
                        org.assertj.core.groups.Tuple.tuple("bob", 1L, 1_000L, 100L, "0.004"));
        assertThat(usage.report(tenant, march, List.of(UsageDimension.AGENT)))
                .extracting(t -> t.group().get(UsageDimension.AGENT), UsageTotals::calls)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("coach", 1L),
                        org.assertj.core.groups.Tuple.tuple("tutor", 4L));
        assertThat(usage.report(tenant, march, List.of(UsageDimension.MODEL)))
                .extracting(t -> t.group().get(UsageDimension.MODEL), UsageTotals::inputTokens)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("anthropic:claude-sonnet-4", 50L),
                        org.assertj.core.groups.Tuple.tuple("openai:gpt-4o", 300L),
                        org.assertj.core.groups.Tuple.tuple("openai:gpt-4o-mini", 1_300L));
        assertThat(usage.report(tenant, march, List.of(UsageDimension.DAY)))
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

        List<UsageTotals> byUserAndDay = usage.report(tenant, both, List.of(UsageDimension.USER, UsageDimension.DAY));
        assertThat(byUserAndDay).hasSize(2);
        assertThat(byUserAndDay.get(0).group())
                .isEqualTo(Map.of(UsageDimension.USER, "carol", UsageDimension.DAY, "2025-03-01"));

        List<UsageTotals> total = usage.report(tenant, both, List.of());
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

        assertThat(usage.report(tenant, day, List.of(UsageDimension.MODEL)))
                .extracting(
                        t -> t.group().get(UsageDimension.MODEL),
                        UsageTotals::inputTokens,
                        UsageTotals::cachedInputTokens)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("anthropic:claude-sonnet-4", 400L, 300L),
                        org.assertj.core.groups.Tuple.tuple("openai:gpt-4o-mini", 1_050L, 800L));
        assertThat(usage.report(tenant, day, List.of()))
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
        assertThat(usage.report(tenant, new UsagePeriod(DAY1, DAY2), List.of(UsageDimension.USER)))
                .isEmpty();
        assertThat(usage.report(tenant, new UsagePeriod(DAY2, DAY2.plusSeconds(1)), List.of(UsageDimension.USER)))
                .extracting(t -> t.group().get(UsageDimension.USER))
                .containsExactly("dave");
        assertThat(usage.report(tenant, new UsagePeriod(DAY1, DAY2), List.of()))
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

        assertThat(conversations.deleteSession("frank", s.id())).isTrue();

        assertThat(usage.report(tenant, new UsagePeriod(DAY1, DAY2), List.of(UsageDimension.AGENT)))
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

        PeriodSpend graceSpend = usage.userSpend(tenant, "grace", today, monthStart);
        assertThat(graceSpend.today()).isEqualByComparingTo("0.05");
        assertThat(graceSpend.thisMonth()).isEqualByComparingTo("0.15");

        PeriodSpend tenantSpend = usage.tenantSpend(tenant, today, monthStart);
        assertThat(tenantSpend.today()).isEqualByComparingTo("1.05");
        assertThat(tenantSpend.thisMonth()).isEqualByComparingTo("1.15");

        assertThat(usage.userSpend(tenant, "nobody", today, monthStart).thisMonth())
                .isZero();
    }

    private static String newTenant() {
        return "tenant-" + Ids.newId();
    }

    private Session session(String tenant, String user, String agent, Instant at) {
        Session s = Session.start(Ids.newId(), tenant, user, agent, null, at);
        conversations.createSession(s);
        return s;
    }

    /** A model call's usage; the turn fills in who and when. */
    private record Call(String provider, String model, long in, long cached, long out, String cost) {}

    private static Call call(String provider, String model, long in, long out, String cost) {
        return new Call(provider, model, in, 0, out, cost);
    }

    /** A call that read {@code cached} of its {@code in} tokens from the provider's prompt cache. */
    private static Call cachedCall(String provider, String model, long in, long cached, long out, String cost) {
        return new Call(provider, model, in, cached, out, cost);
    }

    private void turn(Session s, Instant at, Call... calls) {
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
        conversations.completeTurn(s.userId(), new TurnRecord(answer, List.of(), rows));
    }
}
