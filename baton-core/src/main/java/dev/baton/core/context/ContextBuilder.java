package dev.baton.core.context;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ToolSpec;
import dev.baton.core.turn.TokenCounter;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds what the model reads for a turn: the system prompt, as much recent history as the token budget allows,
 * and the current user message.
 *
 * <p>History comes from one bounded query for the newest {@code historyMessages} messages, so building the context
 * costs the same in a conversation's first turn as in its thousandth. Those messages are then taken newest first
 * while they fit in {@code min(historyTokens, maxContextTokens − system − tools − reserve − current)}; the first
 * message that does not fit ends the history, so what the model sees is always an unbroken recent stretch.
 */
public final class ContextBuilder {
    private static final Logger log = LoggerFactory.getLogger(ContextBuilder.class);

    /** Tokens kept free for the model's answer. */
    public static final int ANSWER_RESERVE_TOKENS = 1024;

    private final ConversationStore store;
    private final TokenCounter tokens;
    private final Clock clock;
    /**
     * What each tool's spec costs, kept between turns: the specs are the same turn after turn, and counting one
     * serialises its schema first. Bounded: tools come and go with MCP servers.
     */
    private final Cache<ToolSpec, Integer> toolTokens =
            Caffeine.newBuilder().maximumSize(1_000).build();

    private final RecentWindows windows;

    public ContextBuilder(ConversationStore store, TokenCounter tokens, Clock clock) {
        this(store, tokens, clock, new RecentWindows());
    }

    /** @param windows the sessions' newest messages this instance keeps between turns (shared with the recorder) */
    public ContextBuilder(ConversationStore store, TokenCounter tokens, Clock clock, RecentWindows windows) {
        this.store = Objects.requireNonNull(store, "store");
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.windows = Objects.requireNonNull(windows, "windows");
    }

    public BuiltContext build(ContextRequest request) {
        return build(request, candidates(request, request.agent().limits().historyMessages()));
    }

    /**
     * The newest messages that may appear as history, loaded before the turn's user message is stored (so hooks
     * can see the same history without another query); pass them to {@link #build(ContextRequest, List)}.
     */
    public List<Message> recentHistory(String userId, String sessionId, TurnLimits limits) {
        if (limits.historyMessages() == 0) {
            return List.of();
        }
        return usable(
                store.recentMessages(userId, sessionId, limits.historyMessages()), null, limits.historyMessages());
    }

    /**
     * As {@link #recentHistory(String, String, TurnLimits)}, for a new turn of {@code session} as it was read for
     * the turn: the history comes from this instance's window of the session when it holds the session as of its
     * message count ({@link RecentWindows}), and from the store otherwise (a session without messages needs neither).
     * The turn checks with {@link RecentHistory#precedes} that its stored user message came right after it.
     */
    public RecentHistory recentHistory(String userId, Session session, TurnLimits limits) {
        int cap = limits.historyMessages();
        if (cap == 0) return RecentHistory.NONE;
        List<Message> newest;
        if (session.messageCount() == 0) {
            newest = List.of();
            windows.loaded(userId, session.id(), newest, cap);
        } else {
            newest = windows.newest(userId, session.id(), session.messageCount(), cap)
                    .orElse(null);
            if (newest == null) {
                newest = store.recentMessages(userId, session.id(), cap);
                windows.loaded(userId, session.id(), newest, cap);
            }
        }
        return new RecentHistory(
                usable(newest, null, cap),
                newest.isEmpty() ? 0 : newest.getLast().seq());
    }

    /**
     * The history of a turn whose stored user message did not come right after what {@link #recentHistory(String,
     * Session, TurnLimits)} found (another instance's message came between): read again from the store, without
     * {@code user}.
     */
    public List<Message> historyBefore(Message user, TurnLimits limits) {
        int cap = limits.historyMessages();
        if (cap == 0) return List.of();
        // one more than the cap: the user message is the newest of them
        List<Message> newest = store.recentMessages(user.userId(), user.sessionId(), cap + 1);
        windows.loaded(user.userId(), user.sessionId(), newest, cap + 1);
        return usable(newest, user.id(), cap);
    }

    /** Builds the context from history already loaded with {@link #recentHistory}. */
    public BuiltContext build(ContextRequest request, List<Message> recent) {
        TurnLimits limits = request.agent().limits();
        SystemPrompt.Parts system = SystemPrompt.parts(
                request.agent().systemPrompt(),
                request.sections(),
                clock.instant(),
                request.principal().displayName());
        String current = request.currentMessage().content();
        List<Message> candidates = usable(recent, request.currentMessage().id(), limits.historyMessages());

        List<Message> history;
        int systemTokens = -1;
        int toolTokens = -1;
        int currentTokens = -1;
        int budget = -1;
        int used = -1;
        boolean fallback = false;
        try {
            systemTokens = tokens.count(system.sections()) + tokens.count(system.closing());
            toolTokens = countTools(request.tools());
            currentTokens = tokens.count(current);
            int room = limits.maxContextTokens() - systemTokens - toolTokens - ANSWER_RESERVE_TOKENS - currentTokens;
            budget = Math.max(0, Math.min(limits.historyTokens(), room));
            used = 0;
            Deque<Message> kept = new ArrayDeque<>();
            for (int i = candidates.size() - 1; i >= 0; i--) {
                int cost = tokens.count(candidates.get(i).content());
                if (used + cost > budget) {
                    break;
                }
                used += cost;
                kept.addFirst(candidates.get(i));
            }
            history = List.copyOf(kept);
        } catch (RuntimeException e) {
            // a context without a token-exact budget beats no answer: the message cap still bounds it
            log.warn(
                    "token counting failed, using the last {} messages as history: {}",
                    candidates.size(),
                    e.toString());
            history = candidates;
            systemTokens = toolTokens = currentTokens = budget = used = -1;
            fallback = true;
        }

        List<ChatMessage> messages = new ArrayList<>(history.size() + 2);
        messages.add(new ChatMessage.System(system.text()));
        history.forEach(m -> messages.add(toChat(m)));
        messages.add(new ChatMessage.User(current));
        return new BuiltContext(
                messages, systemTokens, toolTokens, currentTokens, budget, used, history.size(), fallback);
    }

    /** The newest messages that may appear as history, oldest first, at most {@code cap} of them. */
    private List<Message> candidates(ContextRequest request, int cap) {
        if (cap == 0) {
            return List.of();
        }
        // one more than the cap: the current message is already stored and is usually the newest of them
        return store.recentMessages(request.principal().userId(), request.sessionId(), cap + 1);
    }

    /** Messages fit for history: not the current one, not blocked, not blank; the newest {@code cap}. */
    private static List<Message> usable(List<Message> recent, String currentId, int cap) {
        if (cap == 0) {
            return List.of();
        }
        List<Message> usable = recent.stream()
                .filter(m -> !m.id().equals(currentId))
                .filter(m -> m.status() != MessageStatus.BLOCKED)
                .filter(m -> !m.content().isBlank())
                .toList();
        return usable.size() <= cap ? usable : usable.subList(usable.size() - cap, usable.size());
    }

    private int countTools(List<ToolSpec> specs) {
        int total = 0;
        for (ToolSpec spec : specs) {
            total += toolTokens.get(spec, this::countTool);
        }
        return total;
    }

    private int countTool(ToolSpec spec) {
        return tokens.count(spec.name() + "\n" + spec.description() + "\n" + spec.parametersSchema());
    }

    private static ChatMessage toChat(Message m) {
        return m.role() == MessageRole.USER
                ? new ChatMessage.User(m.content())
                : new ChatMessage.Assistant(m.content(), List.of());
    }
}
