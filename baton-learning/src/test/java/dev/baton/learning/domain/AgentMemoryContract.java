package dev.baton.learning.domain;

import static dev.baton.core.domain.DomainException.Kind.INVALID_ARGUMENT;
import static dev.baton.core.domain.DomainException.Kind.PERMISSION_DENIED;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.id.Ids;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.library.Granularity;
import dev.baton.learning.memory.AgentMemory;
import dev.baton.learning.memory.DecisionPoint;
import dev.baton.learning.memory.LearnerMessage;
import dev.baton.learning.memory.MemoryService;
import dev.baton.learning.memory.RetentionJob;
import dev.baton.learning.store.JdbcAgentConversations;
import dev.baton.learning.store.JdbcMemoryRepository;
import dev.baton.learning.support.Learners;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The learning agent's memory over a real database, run once per dialect: decision points, the current topic and
 * the pending question, who may read and reset it (audited), and the retention purge.
 */
abstract class AgentMemoryContract extends LearningDatabaseTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    Principal alice;

    @BeforeEach
    void newLearner() {
        alice = Learners.newLearner();
    }

    @Test
    void a_decision_with_a_topic_makes_it_the_current_topic_and_answers_the_pending_question() {
        module.memory().askToConfirm(alice, "Quantum physics - is that right?");
        assertThat(module.memory().memory(alice).state().pendingQuestion())
                .isEqualTo("Quantum physics - is that right?");

        module.memory()
                .recordDecision(
                        alice,
                        "s-1",
                        "topic_confirmed",
                        data("{\"topic\":\"Quantum physics\",\"granularity\":\"topic\"}"));

        AgentMemory memory = module.memory().memory(alice);
        assertThat(memory.state().currentTopic()).isEqualTo("Quantum physics");
        assertThat(memory.state().currentGranularity()).isEqualTo(Granularity.TOPIC);
        assertThat(memory.state().pendingQuestion()).isNull();
        assertThat(memory.decisions()).extracting(DecisionPoint::decision).containsExactly("topic_confirmed");
        assertThat(memory.decisions().getFirst().sessionId()).isEqualTo("s-1");
        assertThat(memory.decisions().getFirst().data().path("topic").asText()).isEqualTo("Quantum physics");
    }

    @Test
    void decisions_come_back_newest_first_and_a_restart_keeps_the_topic() {
        module.memory().recordDecision(alice, null, "topic_confirmed", data("{\"topic\":\"Leadership\"}"));
        clock.advance(Duration.ofMinutes(1));
        module.memory().recordDecision(alice, null, "restart", null);

        AgentMemory memory = module.memory().memory(alice);
        assertThat(memory.decisions())
                .extracting(DecisionPoint::decision)
                .containsExactly("restart", "topic_confirmed");
        assertThat(memory.state().currentTopic()).isEqualTo("Leadership");
        assertThat(memory.state().updatedAt()).isEqualTo(NOW.plus(Duration.ofMinutes(1)));
    }

    @Test
    void bad_decisions_are_refused_precisely() {
        refused(() -> module.memory().recordDecision(alice, null, "", null), INVALID_ARGUMENT, "decision must be");
        refused(
                () -> module.memory().recordDecision(alice, null, "x", JSON.createArrayNode()),
                INVALID_ARGUMENT,
                "JSON object");
        refused(
                () -> module.memory().recordDecision(alice, null, "x", data("{\"topic\": 3}")),
                INVALID_ARGUMENT,
                "data.topic must be a string");
        refused(
                () -> module.memory()
                        .recordDecision(alice, null, "x", data("{\"granularity\":\"galaxy\",\"topic\":\"a\"}")),
                INVALID_ARGUMENT,
                "subject, topic or module");
        ObjectNode big = JSON.createObjectNode().put("note", "x".repeat(5000));
        refused(() -> module.memory().recordDecision(alice, null, "x", big), INVALID_ARGUMENT, "at most 4000");
        assertThat(module.memory().memory(alice).decisions()).isEmpty();
    }

    @Test
    void only_the_learner_or_an_admin_of_their_tenant_reads_their_memory() {
        module.memory().recordDecision(alice, null, "topic_confirmed", data("{\"topic\":\"Spanish\"}"));
        Principal bob = Learners.newLearner();
        Principal admin = Learners.user("admin-1", "default", LearningPermissions.ADMIN);
        Principal otherTenantAdmin = Learners.user("admin-2", "other", LearningPermissions.ADMIN);

        refused(() -> module.memory().memory(bob, alice.userId()), PERMISSION_DENIED, "only see or reset your own");
        assertThat(module.memory().memory(admin, alice.userId()).state().currentTopic())
                .isEqualTo("Spanish");
        assertThat(module.memory()
                        .memory(otherTenantAdmin, alice.userId())
                        .state()
                        .currentTopic())
                .isNull();
    }

    @Test
    void a_reset_forgets_memory_and_learning_conversations_only_and_is_audited() {
        module.memory().recordDecision(alice, null, "topic_confirmed", data("{\"topic\":\"Spanish\"}"));
        Session learning = session(alice, "learning", NOW);
        Session tasks = session(alice, "tasks", NOW);
        Principal admin = Learners.user("admin-3", "default", LearningPermissions.ADMIN);

        int deleted = module.memory().reset(admin, alice.userId());

        assertThat(deleted).isEqualTo(1);
        assertThat(module.memory().memory(alice).decisions()).isEmpty();
        assertThat(module.memory().memory(alice).state().currentTopic()).isNull();
        assertThat(conversations.findSession(alice.userId(), learning.id())).isEmpty();
        assertThat(conversations.findSession(alice.userId(), tasks.id())).isPresent();
        assertThat(auditRows(alice.userId(), "admin-3")).isEqualTo(1);
        refused(() -> module.memory().reset(Learners.newLearner(), alice.userId()), PERMISSION_DENIED, "your own");
    }

    @Test
    void retention_purges_old_conversations_and_memory_and_keeps_recent_ones() {
        Principal old = Learners.newLearner();
        clock.set(NOW.minus(Duration.ofDays(40)));
        module.memory().recordDecision(old, null, "topic_confirmed", data("{\"topic\":\"History\"}"));
        Session stale = session(old, "learning", clock.instant());
        Session staleTasks = session(old, "tasks", clock.instant());
        clock.set(NOW.minus(Duration.ofDays(2)));
        module.memory().recordDecision(alice, null, "topic_confirmed", data("{\"topic\":\"French\"}"));
        Session fresh = session(alice, "learning", clock.instant());
        clock.set(NOW);

        var purged = module.retention().runOnce();

        assertThat(purged.conversations()).isGreaterThanOrEqualTo(1);
        assertThat(conversations.findSession(old.userId(), stale.id())).isEmpty();
        assertThat(conversations.findSession(old.userId(), staleTasks.id())).isPresent();
        assertThat(conversations.findSession(alice.userId(), fresh.id())).isPresent();
        assertThat(module.memory().memory(old).decisions()).isEmpty();
        assertThat(module.memory().memory(old).state().currentTopic()).isNull();
        assertThat(module.memory().memory(alice).state().currentTopic()).isEqualTo("French");
    }

    @Test
    void one_retention_run_deletes_at_most_its_batch() {
        clock.set(NOW.minus(Duration.ofDays(60)));
        Principal a = Learners.newLearner();
        List<Session> stale = List.of(
                session(a, "learning", clock.instant()),
                session(a, "learning", clock.instant()),
                session(a, "learning", clock.instant()));
        clock.set(NOW);
        RetentionJob small = new RetentionJob(
                new JdbcMemoryRepository(opened.database()),
                new JdbcAgentConversations(opened.database(), conversations, List.of("learning")),
                clock,
                new RetentionJob.Settings(Duration.ofDays(30), Duration.ofHours(1), 1));

        assertThat(small.runOnce().conversations()).isEqualTo(1);
        assertThat(stale.stream()
                        .filter(s ->
                                conversations.findSession(a.userId(), s.id()).isPresent()))
                .hasSize(2);
    }

    @Test
    void a_memory_read_shows_the_newest_messages_of_the_running_learning_conversation_oldest_first() {
        Session older = session(alice, "learning", clock.instant());
        say(older, 0, "an older conversation");
        clock.advance(Duration.ofMinutes(1));
        Session running = session(alice, "learning", clock.instant());
        int said = MemoryService.RECENT_MESSAGES + 5;
        for (int i = 1; i <= said; i++) say(running, i, "message " + i);
        Session tasks = session(alice, "tasks", clock.instant());
        say(tasks, 1, "not a learning conversation");

        List<LearnerMessage> history = module.memory().memory(alice).history();

        assertThat(history).hasSize(MemoryService.RECENT_MESSAGES);
        assertThat(history).extracting(LearnerMessage::conversationId).containsOnly(running.id());
        assertThat(history.getFirst().content()).isEqualTo("message 6");
        assertThat(history.getLast().content()).isEqualTo("message " + said);
        assertThat(history).extracting(LearnerMessage::role).containsOnly("user");
        assertThat(module.memory().memory(Learners.newLearner()).history()).isEmpty();
    }

    private void say(Session session, int seq, String content) {
        conversations.appendUserMessage(new Message(
                Ids.newId(),
                session.id(),
                session.userId(),
                seq,
                MessageRole.USER,
                content,
                MessageStatus.COMPLETE,
                null,
                clock.instant()));
    }

    private Session session(Principal owner, String agentId, java.time.Instant at) {
        Session s = Session.start(Ids.newId(), owner.tenantId(), owner.userId(), agentId, null, at);
        conversations.createSession(s);
        return s;
    }

    private int auditRows(String target, String actor) {
        return opened.database().withConnection(c -> {
            try (var ps = c.prepareStatement(
                    "SELECT count(*) FROM learning_memory_audit WHERE target_user_id = ? AND actor_id = ?"
                            + " AND action = 'reset'")) {
                ps.setString(1, target);
                ps.setString(2, actor);
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    private static ObjectNode data(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
