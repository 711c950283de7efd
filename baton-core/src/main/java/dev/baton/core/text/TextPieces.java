package dev.baton.core.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Text that grows by appends, kept as the pieces it was given rather than copied into one growing array. A streamed
 * answer is held by several parts of a turn at once (the model reply's assembly, the turn's answer, the output
 * filters' input, the turn's event log): when each copies its pieces into a {@link StringBuilder}, a partial answer is
 * held once per part, each with up to twice its length in capacity, and every doubling allocates the whole array
 * again. Here a piece of {@value #SHARED_AT} characters or more is kept as the very {@code String} the caller
 * passed, so every holder of the same delta shares one copy of its characters; shorter pieces (a model streaming a
 * token at a time) are gathered into strings of about {@value #GATHER} characters, so a piece costs no object of its
 * own. Either way a piece is a compact {@code String} (one byte a character for Latin-1 text) and no array larger
 * than the largest piece is ever allocated until {@link #toString()}.
 *
 * <p>Not thread-safe: each holder confines its text to the thread that appends to it (a turn's thread).
 */
public final class TextPieces {
    /** A piece at least this long is kept as given (shared with whoever else holds it). */
    static final int SHARED_AT = 256;
    /** Short pieces are gathered until they are this long, then kept as one piece. */
    static final int GATHER = 4096;

    private final List<String> pieces = new ArrayList<>();
    /** Short pieces not yet kept as one; null until the first. */
    private StringBuilder gathering;

    private long length;

    /** Empty text. */
    public TextPieces() {}

    /** Text that starts as {@code initial}. */
    public static TextPieces of(String initial) {
        TextPieces text = new TextPieces();
        text.append(initial);
        return text;
    }

    /** Adds {@code piece} at the end; a long one is kept as this very string. */
    public TextPieces append(String piece) {
        Objects.requireNonNull(piece, "piece");
        if (piece.isEmpty()) return this;
        length += piece.length();
        if (piece.length() >= SHARED_AT) {
            keepGathered();
            pieces.add(piece);
            return this;
        }
        if (gathering == null) gathering = new StringBuilder(Math.max(16, piece.length()));
        gathering.append(piece);
        if (gathering.length() >= GATHER) keepGathered();
        return this;
    }

    /** The number of characters. */
    public long length() {
        return length;
    }

    public boolean isEmpty() {
        return length == 0;
    }

    /** Empties the text. */
    public void clear() {
        pieces.clear();
        gathering = null;
        length = 0;
    }

    /**
     * The whole text as one string (a new array of exactly its length).
     *
     * @throws OutOfMemoryError when it is longer than a string can be
     */
    @Override
    public String toString() {
        if (gathering == null || gathering.isEmpty()) {
            return pieces.size() == 1 ? pieces.getFirst() : String.join("", pieces);
        }
        if (pieces.isEmpty()) return gathering.toString();
        List<String> all = new ArrayList<>(pieces.size() + 1);
        all.addAll(pieces);
        all.add(gathering.toString());
        return String.join("", all);
    }

    /** How many strings hold the text (the gathered short pieces counted as one): for tests of its layout. */
    int pieceCount() {
        return pieces.size() + (gathering == null || gathering.isEmpty() ? 0 : 1);
    }

    private void keepGathered() {
        if (gathering == null || gathering.isEmpty()) return;
        // toString() compacts: Latin-1 text is kept at one byte a character
        pieces.add(gathering.toString());
        // a new builder rather than setLength(0): a builder that once held a wider character stays two bytes wide
        gathering = null;
    }
}
