package dev.baton.core.turn;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Objects;

/**
 * Remembers the counts of texts it has counted. Counting is a tokeniser pass over the whole text (a regular expression
 * and byte-pair merges), and a turn counts texts that earlier turns counted already: the system prompt's sections, the
 * history messages, which come back turn after turn until they fall out of the history window. Looking a text up costs
 * a hash and an equality check instead.
 *
 * <p>Bounded by the characters it keeps ({@link #DEFAULT_MAX_CHARS} by default, about 16 MB), evicting what is used
 * least; texts longer than a tenth of that are counted every time rather than pushing out everything else.
 */
public final class CachingTokenCounter implements TokenCounter {
    /** Four million characters: about 8 MB of strings, plus the map's own overhead. */
    public static final long DEFAULT_MAX_CHARS = 4_000_000;

    private final TokenCounter counter;
    private final Cache<String, Integer> counts;
    private final long maxCachedLength;

    private CachingTokenCounter(TokenCounter counter, long maxChars) {
        this.counter = Objects.requireNonNull(counter, "counter");
        this.counts = Caffeine.newBuilder()
                .maximumWeight(maxChars)
                .weigher((String text, Integer count) -> text.length())
                .build();
        this.maxCachedLength = maxChars / 10;
    }

    /** {@code counter} behind a cache of {@link #DEFAULT_MAX_CHARS}; a counter that already caches is returned as is. */
    public static TokenCounter of(TokenCounter counter) {
        return counter instanceof CachingTokenCounter ? counter : new CachingTokenCounter(counter, DEFAULT_MAX_CHARS);
    }

    @Override
    public int count(String text) {
        if (text == null || text.isEmpty()) {
            return counter.count(text);
        }
        if (text.length() > maxCachedLength) {
            return counter.count(text);
        }
        return counts.get(text, counter::count);
    }
}
