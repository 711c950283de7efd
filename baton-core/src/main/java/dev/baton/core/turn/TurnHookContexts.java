package dev.baton.core.turn;

import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.HookContexts;
import java.time.Instant;
import java.util.List;

/** The hook context of a turn, from the request and the history already loaded for its context. */
final class TurnHookContexts {
    private TurnHookContexts() {}

    static HookContext of(TurnRequest request, List<Message> recent, Instant now) {
        List<HookContext.HistoryMessage> history = recent.stream()
                .filter(m -> m.status() != MessageStatus.BLOCKED)
                .map(m -> new HookContext.HistoryMessage(m.role().wireName(), m.content(), m.createdAt()))
                .toList();
        return HookContexts.forTurn(
                request.requestId(),
                request.principal(),
                request.session(),
                request.agent(),
                request.assignment(),
                history,
                request.userContent(),
                now);
    }
}
