package dev.baton.core.conversation;

/**
 * A write of a running turn refused because its {@link TurnFence} no longer holds: another instance took the turn
 * over (or it ended). Nothing of the write was stored; the turn must stop without writing anything else.
 */
public final class TurnFencedException extends RuntimeException {
    private final transient TurnFence fence;

    public TurnFencedException(TurnFence fence) {
        super("turn " + fence.turnId() + " is no longer held at epoch " + fence.epoch(), null, false, false);
        this.fence = fence;
    }

    public TurnFence fence() {
        return fence;
    }
}
