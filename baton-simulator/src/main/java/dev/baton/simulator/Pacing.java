package dev.baton.simulator;

import java.time.Duration;
import java.util.Objects;

/**
 * How fast the simulator answers. Pacing uses real time; tests should not depend on it beyond "slow enough"
 * or "fast enough".
 *
 * @param firstTokenLatency wait before the response starts (before headers, so a client timeout can fire)
 * @param tokensPerSecond streaming speed; 0 means no pacing at all
 * @param chunkSize words per streamed text delta (tool-call arguments go out in fragments of 4 × this many
 *     characters)
 */
public record Pacing(Duration firstTokenLatency, double tokensPerSecond, int chunkSize) {

    /** No latency, no pacing, one word per delta. */
    public static final Pacing INSTANT = new Pacing(Duration.ZERO, 0, 1);

    public Pacing {
        Objects.requireNonNull(firstTokenLatency, "firstTokenLatency");
        if (firstTokenLatency.isNegative()) {
            throw new IllegalArgumentException("firstTokenLatency must not be negative");
        }
        if (tokensPerSecond < 0 || Double.isNaN(tokensPerSecond) || Double.isInfinite(tokensPerSecond)) {
            throw new IllegalArgumentException("tokensPerSecond must be a finite number >= 0");
        }
        if (chunkSize < 1) {
            throw new IllegalArgumentException("chunkSize must be >= 1");
        }
    }

    public Pacing withFirstTokenLatency(Duration latency) {
        return new Pacing(latency, tokensPerSecond, chunkSize);
    }

    public Pacing withTokensPerSecond(double tps) {
        return new Pacing(firstTokenLatency, tps, chunkSize);
    }

    public Pacing withChunkSize(int size) {
        return new Pacing(firstTokenLatency, tokensPerSecond, size);
    }

    /** The pause between two deltas that each carry about {@code tokens} tokens. */
    Duration delayFor(long tokens) {
        if (tokensPerSecond == 0 || tokens <= 0) {
            return Duration.ZERO;
        }
        return Duration.ofNanos((long) (tokens * 1_000_000_000d / tokensPerSecond));
    }
}
