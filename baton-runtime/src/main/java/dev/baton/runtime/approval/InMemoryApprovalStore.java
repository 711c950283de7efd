package dev.baton.runtime.approval;

import dev.baton.core.id.Ids;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@link ApprovalStore} in this process's memory, for tests and programs that run one instance without a database. */
final class InMemoryApprovalStore implements ApprovalStore {
    private final Map<String, PausedTurn> turns = new LinkedHashMap<>();
    private final Map<String, ToolApproval> calls = new LinkedHashMap<>();
    private final Set<String> runStarted = new HashSet<>();

    @Override
    public synchronized void pause(PausedTurn turn, List<ToolApproval> approvals) {
        if (turns.containsKey(turn.turnId())) throw new IllegalArgumentException("turn " + turn.turnId() + " exists");
        turns.put(turn.turnId(), turn);
        approvals.forEach(a -> calls.put(a.callId(), a));
    }

    @Override
    public synchronized Optional<ToolApproval> find(String tenantId, String userId, String sessionId, String callId) {
        return Optional.ofNullable(calls.get(callId)).filter(a -> owned(a, tenantId, userId, sessionId));
    }

    @Override
    public synchronized List<ToolApproval> pending(String tenantId, String userId, String sessionId) {
        return calls.values().stream()
                .filter(a -> owned(a, tenantId, userId, sessionId) && a.isPending())
                .sorted(ORDER)
                .toList();
    }

    @Override
    public synchronized Optional<PausedTurn> pausedTurn(String tenantId, String userId, String sessionId) {
        return turns.values().stream()
                .filter(t -> t.tenantId().equals(tenantId)
                        && t.userId().equals(userId)
                        && t.sessionId().equals(sessionId)
                        && t.status() == PausedTurn.Status.PAUSED)
                .findFirst();
    }

    @Override
    public synchronized Decided decide(String callId, Decision decision, Instant now, Instant claimUntil) {
        ToolApproval current = calls.get(callId);
        PausedTurn turn = current == null ? null : turns.get(current.turnId());
        if (current == null
                || !current.isPending()
                || !now.isBefore(current.expiresAt())
                || turn.status() != PausedTurn.Status.PAUSED) {
            return new NotPending(current);
        }
        ToolApproval decided = decided(
                current, decision.status(), now, decision.decidedBy(), decision.arguments(), decision.comment());
        calls.put(callId, decided);
        List<ToolApproval> ofTurn = ofTurn(turn.turnId());
        List<ToolApproval> stillPending =
                ofTurn.stream().filter(ToolApproval::isPending).toList();
        if (!stillPending.isEmpty()) return new Waiting(decided, stillPending);
        PausedTurn claimed = turn.claimed(PausedTurn.Status.RESUMED, Ids.newId(), claimUntil);
        turns.put(turn.turnId(), claimed);
        return new Resumable(claimed, ofTurn);
    }

    @Override
    public synchronized Optional<PausedTurn> turn(String tenantId, String userId, String turnId) {
        return Optional.ofNullable(turns.get(turnId))
                .filter(t -> t.tenantId().equals(tenantId) && t.userId().equals(userId));
    }

    @Override
    public synchronized Optional<Resumable> reclaim(String turnId, Instant now, Instant claimUntil) {
        PausedTurn turn = turns.get(turnId);
        if (turn == null || !turn.abandonedAt(now)) return Optional.empty();
        PausedTurn claimed = turn.claimed(PausedTurn.Status.RESUMED, Ids.newId(), claimUntil);
        turns.put(turnId, claimed);
        List<ToolApproval> ofTurn = ofTurn(turnId);
        Set<String> started = new HashSet<>();
        for (ToolApproval a : ofTurn) if (runStarted.contains(a.callId())) started.add(a.callId());
        return Optional.of(new Resumable(claimed, ofTurn, started));
    }

    @Override
    public synchronized List<PausedTurn> abandoned(Instant now, int limit) {
        return turns.values().stream()
                .filter(t -> t.abandonedAt(now) && !now.isBefore(t.expiresAt()))
                .sorted(Comparator.comparing(PausedTurn::claimedUntil))
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized void runStarting(String turnId, List<String> callIds, Instant now) {
        runStarted.addAll(callIds);
    }

    @Override
    public synchronized void finish(String turnId, String claimId) {
        PausedTurn turn = turns.get(turnId);
        if (turn == null || !java.util.Objects.equals(turn.claimId(), claimId)) return;
        turns.put(turnId, turn.claimed(turn.status(), claimId, null));
    }

    @Override
    public synchronized Optional<Closed> close(
            String turnId, ApprovalStatus status, String decidedBy, String comment, Instant now) {
        PausedTurn turn = turns.get(turnId);
        if (turn == null || turn.status() != PausedTurn.Status.PAUSED) return Optional.empty();
        PausedTurn closed = turn.claimed(PausedTurn.Status.CLOSED, null, null);
        turns.put(turnId, closed);
        for (ToolApproval a : ofTurn(turnId)) {
            if (a.isPending()) calls.put(a.callId(), decided(a, status, now, decidedBy, null, comment));
        }
        return Optional.of(new Closed(closed, ofTurn(turnId)));
    }

    @Override
    public synchronized List<PausedTurn> expired(Instant now, int limit) {
        return turns.values().stream()
                .filter(t -> t.status() == PausedTurn.Status.PAUSED && !now.isBefore(t.expiresAt()))
                .sorted(Comparator.comparing(PausedTurn::expiresAt))
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized List<ToolApproval> sessionApprovals(String tenantId, String sessionId) {
        return calls.values().stream()
                .filter(a -> a.tenantId().equals(tenantId) && a.sessionId().equals(sessionId))
                .sorted(ORDER)
                .toList();
    }

    private static final Comparator<ToolApproval> ORDER =
            Comparator.comparing(ToolApproval::createdAt).thenComparingInt(ToolApproval::position);

    private List<ToolApproval> ofTurn(String turnId) {
        List<ToolApproval> found = new ArrayList<>();
        for (ToolApproval a : calls.values()) if (a.turnId().equals(turnId)) found.add(a);
        found.sort(Comparator.comparingInt(ToolApproval::position));
        return found;
    }

    private static boolean owned(ToolApproval a, String tenantId, String userId, String sessionId) {
        return a.tenantId().equals(tenantId)
                && a.userId().equals(userId)
                && a.sessionId().equals(sessionId);
    }

    static ToolApproval decided(
            ToolApproval a, ApprovalStatus status, Instant at, String by, String arguments, String comment) {
        return new ToolApproval(
                a.callId(),
                a.turnId(),
                a.position(),
                a.tenantId(),
                a.userId(),
                a.sessionId(),
                a.toolCallId(),
                a.toolName(),
                a.arguments(),
                a.reason(),
                a.summary(),
                status,
                a.createdAt(),
                a.expiresAt(),
                at,
                by,
                arguments,
                comment);
    }
}
