package dev.baton.learning.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.id.Ids;
import dev.baton.learning.Learner;
import dev.baton.learning.LearningException;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.Texts;
import dev.baton.learning.library.Granularity;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The learning agent's memory of each learner: decision points (storeDecision), the question it awaits an answer
 * to (confirmWithUser) and the current topic. A learner reads and resets their own; an administrator (with
 * {@link LearningPermissions#ADMIN}) anyone's in their tenant. Resets are audited.
 */
public final class MemoryService {
    /** How many decisions a memory read returns. */
    public static final int RECENT_DECISIONS = 20;
    /** How many of the running conversation's latest messages a memory read returns. */
    public static final int RECENT_MESSAGES = 20;

    public static final int MAX_DECISION = 100;
    public static final int MAX_DATA_CHARS = 4_000;
    public static final int MAX_QUESTION = 500;
    public static final int MAX_TOPIC = 200;

    private static final Logger log = LoggerFactory.getLogger(MemoryService.class);
    private static final Pattern DECISION = Pattern.compile("[a-z][a-z0-9_.-]{0,99}");

    private final MemoryRepository repository;
    private final LearnerConversations conversations;
    private final Clock clock;

    /** @param conversations forgets a learner's conversations with the learning agent on reset */
    public MemoryService(MemoryRepository repository, LearnerConversations conversations, Clock clock) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.conversations = Objects.requireNonNull(conversations, "conversations");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Records a decision point. When {@code data} names a {@code topic} (and optionally its {@code granularity}), that
     * topic becomes the learner's current one and the pending question counts as answered.
     *
     * @param decision a short snake_case name, e.g. {@code topic_confirmed}
     * @param data a JSON object of at most 4,000 characters, or null for none
     * @throws LearningException invalid_argument for a bad name, data that is not a small object, or a bad topic
     */
    public DecisionPoint recordDecision(Principal principal, String sessionId, String decision, JsonNode data) {
        LearningPermissions.require(principal, LearningPermissions.WRITE);
        String name = decision == null ? "" : decision.strip().toLowerCase(Locale.ROOT);
        if (!DECISION.matcher(name).matches()) {
            throw LearningException.invalidArgument("decision must be a short name of letters, digits and _"
                    + " (e.g. topic_confirmed), at most " + MAX_DECISION + " characters");
        }
        ObjectNode object = dataObject(data);
        Learner learner = Learner.of(principal);
        Instant now = now();
        AgentState state = repository.state(learner).orElse(AgentState.empty(learner, now));
        JsonNode topic = object.get("topic");
        if (topic != null && !topic.isNull()) {
            if (!topic.isTextual()) throw LearningException.invalidArgument("data.topic must be a string");
            state = state.withTopic(
                    Texts.required(topic.textValue(), "data.topic", MAX_TOPIC), granularity(object), now);
        } else {
            state = state.touched(now);
        }
        DecisionPoint point = new DecisionPoint(Ids.newId(), learner, sessionId, name, object, now);
        repository.remember(point, state);
        return point;
    }

    /**
     * Notes that the agent asked the learner {@code question} and awaits the answer (confirmWithUser): the next turn
     * sees it in the agent's context.
     */
    public AgentState askToConfirm(Principal principal, String question) {
        LearningPermissions.require(principal, LearningPermissions.WRITE);
        String text = Texts.required(question, "question", MAX_QUESTION);
        Learner learner = Learner.of(principal);
        Instant now = now();
        AgentState state =
                repository.state(learner).orElse(AgentState.empty(learner, now)).awaiting(text, now);
        repository.saveState(state);
        return state;
    }

    /**
     * What the agent remembers of the learner it is talking to, for its context. No permission check: the learner is
     * the caller of the turn this context is built for.
     */
    public AgentMemory recall(Learner learner) {
        AgentState state = repository.state(learner).orElse(AgentState.empty(learner, now()));
        return new AgentMemory(state, repository.decisions(learner, RECENT_DECISIONS));
    }

    /** The caller's own memory (for the learner's own view). */
    public AgentMemory memory(Principal principal) {
        return memory(principal, principal.userId());
    }

    /**
     * A learner's memory, with the latest {@value #RECENT_MESSAGES} messages of their running conversation with the
     * learning agent: the caller's own, or anyone's in the caller's tenant for an administrator.
     *
     * @throws LearningException permission_denied for another learner without {@link LearningPermissions#ADMIN}
     */
    public AgentMemory memory(Principal principal, String userId) {
        Learner learner = target(principal, userId, LearningPermissions.READ);
        AgentMemory remembered = recall(learner);
        return new AgentMemory(
                remembered.state(), remembered.decisions(), conversations.recentMessages(learner, RECENT_MESSAGES));
    }

    /**
     * Forgets a learner: the learning agent's memory of them and their conversations with it. Audited: who reset
     * whom, and when.
     *
     * @return how many conversations were deleted
     * @throws LearningException permission_denied for another learner without {@link LearningPermissions#ADMIN}
     */
    public int reset(Principal principal, String userId) {
        Learner learner = target(principal, userId, LearningPermissions.WRITE);
        int decisions = repository.forget(learner, principal.userId(), now());
        int sessions = conversations.deleteAll(learner);
        log.info(
                "learning agent memory reset: user {} (tenant {}) by {}: {} decisions, {} conversations",
                learner.userId(),
                learner.tenantId(),
                principal.userId(),
                decisions,
                sessions);
        return sessions;
    }

    private Learner target(Principal principal, String userId, String selfPermission) {
        Objects.requireNonNull(principal, "principal");
        if (userId == null || userId.isBlank()) throw LearningException.invalidArgument("userId is required");
        if (userId.equals(principal.userId())) {
            LearningPermissions.require(principal, selfPermission);
        } else if (!principal.hasPermission(LearningPermissions.ADMIN)) {
            throw new LearningException(
                    LearningException.Kind.PERMISSION_DENIED,
                    "You can only see or reset your own learning memory (another learner's needs "
                            + LearningPermissions.ADMIN + ").");
        }
        return new Learner(principal.tenantId(), userId);
    }

    private static ObjectNode dataObject(JsonNode data) {
        if (data == null || data.isNull() || data.isMissingNode()) return JsonNodeFactory.instance.objectNode();
        if (!(data instanceof ObjectNode object)) throw LearningException.invalidArgument("data must be a JSON object");
        if (object.toString().length() > MAX_DATA_CHARS) {
            throw LearningException.invalidArgument("data must be at most " + MAX_DATA_CHARS + " characters as JSON");
        }
        return object;
    }

    private static Granularity granularity(ObjectNode data) {
        JsonNode value = data.get("granularity");
        if (value == null || value.isNull()) return null;
        try {
            return Granularity.fromWireName(value.asText());
        } catch (IllegalArgumentException e) {
            throw LearningException.invalidArgument("data.granularity must be subject, topic or module");
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
