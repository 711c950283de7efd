package dev.baton.core.conversation;

import java.util.Objects;

/**
 * The lease a running turn holds on its row of running turns: the turn and the lease's epoch. Every write of the turn
 * after its user message (a step's tool calls and checkpoint, its answer) carries it, and the store makes the write
 * only while the row still has this epoch: an instance whose turn another instance took over (it stopped renewing
 * the lease, e.g. a long pause) cannot write again.
 *
 * @param epoch raised by one at every takeover
 */
public record TurnFence(String turnId, long epoch) {
    public TurnFence {
        Objects.requireNonNull(turnId, "turnId");
        if (epoch < 1) throw new IllegalArgumentException("epoch must be >= 1");
    }
}
