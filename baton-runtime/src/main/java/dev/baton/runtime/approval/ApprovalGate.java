package dev.baton.runtime.approval;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.ApprovalPolicy;
import dev.baton.core.id.Ids;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolJson;
import dev.baton.core.turn.ToolApprovals;
import dev.baton.core.turn.TurnState;
import dev.baton.core.turn.TurnStateCodec;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The turn loop's {@link ToolApprovals} in the runtime: holds a call by its tool's {@link ApprovalPolicy} for the
 * agent, and stores a paused turn — its state as {@link TurnStateCodec} JSON and one pending {@link ToolApproval} per
 * held call, expiring after {@link ApprovalSettings#expiresAfter()} — in the {@link ApprovalStore}.
 */
public final class ApprovalGate implements ToolApprovals {
    private final ApprovalStore store;
    private final ApprovalSettings settings;
    private final Clock clock;

    public ApprovalGate(ApprovalStore store, ApprovalSettings settings, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Optional<String> reasonToHold(AgentDefinition agent, ToolDefinition tool, ToolCallRequest call) {
        return settings.reasonToHold(agent, tool);
    }

    @Override
    public List<Pending> pause(Pause pause) {
        Instant now = clock.instant();
        Instant expiresAt = now.plus(settings.expiresAfter());
        var request = pause.request();
        PausedTurn turn = new PausedTurn(
                pause.state().turnId(),
                request.principal().tenantId(),
                request.principal().userId(),
                request.session().id(),
                request.requestId(),
                TurnStateCodec.encode(pause.state()),
                PausedTurn.Status.PAUSED,
                now,
                expiresAt);
        List<ToolApproval> calls = new ArrayList<>();
        List<Pending> pending = new ArrayList<>();
        for (int i = 0; i < pause.held().size(); i++) {
            Held held = pause.held().get(i);
            ToolCallRequest call = held.call();
            String callId = Ids.newId();
            calls.add(new ToolApproval(
                    callId,
                    turn.turnId(),
                    i,
                    turn.tenantId(),
                    turn.userId(),
                    turn.sessionId(),
                    call.id(),
                    call.name(),
                    call.argumentsJson(),
                    held.reason(),
                    held.summary(),
                    ApprovalStatus.PENDING,
                    now,
                    expiresAt,
                    null,
                    null,
                    null,
                    null));
            pending.add(new Pending(
                    callId,
                    call.id(),
                    call.name(),
                    ToolJson.argumentsForDisplay(call.argumentsJson()),
                    held.reason(),
                    expiresAt,
                    held.summary()));
        }
        store.pause(turn, calls);
        return pending;
    }

    @Override
    public void runStarting(TurnState state, List<String> recordIds) {
        store.runStarting(state.turnId(), recordIds, clock.instant());
    }
}
