package dev.baton.providers.token;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import dev.baton.core.turn.TokenCounter;
import java.util.Objects;

/**
 * Counts tokens with a tiktoken encoding. {@code o200k_base} is what OpenAI's current models (GPT-4o and
 * later) use; for other providers it is a close estimate, which is all history budgeting needs.
 *
 * <p>Thread-safe: jtokkit encodings are immutable, and the encoding tables are loaded once per process. Create
 * one and share it.
 */
public final class JtokkitTokenCounter implements TokenCounter {

    // loading an encoding parses a large vocabulary: share the tables between counters
    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    private final Encoding encoding;

    /** A counter with {@code o200k_base}. */
    public JtokkitTokenCounter() {
        this(EncodingType.O200K_BASE);
    }

    public JtokkitTokenCounter(EncodingType type) {
        Objects.requireNonNull(type, "type");
        this.encoding = REGISTRY.getEncoding(type);
    }

    /** Counts the tokens of {@code text}; null or empty counts as zero. Special tokens count as plain text. */
    @Override
    public int count(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        return encoding.countTokensOrdinary(text);
    }

    public String encodingName() {
        return encoding.getName();
    }
}
