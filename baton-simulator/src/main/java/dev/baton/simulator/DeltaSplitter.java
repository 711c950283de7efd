package dev.baton.simulator;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/** Cuts an answer into the small pieces a streaming model would send. */
final class DeltaSplitter {

    private static final Pattern WORD = Pattern.compile("\\s*\\S+");
    private static final int CHARACTERS_PER_TOKEN = 4;

    private DeltaSplitter() {}

    /** Groups of {@code wordsPerPiece} words, each carrying the whitespace before it; joined they give the text. */
    static List<String> words(String text, int wordsPerPiece) {
        return wordStream(text, wordsPerPiece).toList();
    }

    /**
     * {@link #words}, each piece cut only when it is taken: a 15 MB answer is never held as 15,000 pieces at once,
     * and a client that stops reading stops the cutting.
     */
    static Stream<String> wordStream(String text, int wordsPerPiece) {
        return StreamSupport.stream(
                Spliterators.spliteratorUnknownSize(
                        new WordPieces(text, wordsPerPiece), Spliterator.ORDERED | Spliterator.NONNULL),
                false);
    }

    /** The pieces of {@link #words}, one ahead: trailing whitespace belongs to the last piece. */
    private static final class WordPieces implements Iterator<String> {
        private final String text;
        private final int wordsPerPiece;
        private final Matcher matcher;
        /** The next piece's first word, found while looking whether the piece before was the last; -1: none. */
        private int pendingStart = -1, pendingEnd;

        private int end;
        private boolean finished;
        private String next;

        WordPieces(String text, int wordsPerPiece) {
            this.text = text;
            this.wordsPerPiece = Math.max(1, wordsPerPiece);
            this.matcher = WORD.matcher(text);
        }

        @Override
        public boolean hasNext() {
            if (next == null && !finished) next = cut();
            return next != null;
        }

        @Override
        public String next() {
            if (!hasNext()) throw new NoSuchElementException();
            String piece = next;
            next = null;
            return piece;
        }

        private String cut() {
            var piece = new StringBuilder();
            int words = 0;
            if (pendingStart >= 0) {
                piece.append(text, pendingStart, pendingEnd);
                end = pendingEnd;
                pendingStart = -1;
                words = 1;
            }
            while (words < wordsPerPiece && matcher.find()) {
                piece.append(text, matcher.start(), matcher.end());
                end = matcher.end();
                words++;
            }
            if (words == wordsPerPiece && matcher.find()) {
                pendingStart = matcher.start();
                pendingEnd = matcher.end();
                return piece.toString();
            }
            piece.append(text, end, text.length()); // trailing whitespace, or all of a whitespace-only text
            finished = true;
            return piece.isEmpty() ? null : piece.toString();
        }
    }

    /** Fragments of about {@code tokensPerPiece} tokens, never splitting a surrogate pair. */
    static List<String> fragments(String text, int tokensPerPiece) {
        int size = Math.max(1, tokensPerPiece * CHARACTERS_PER_TOKEN);
        var pieces = new ArrayList<String>();
        int start = 0;
        while (start < text.length()) {
            int end = Math.min(text.length(), start + size);
            if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
                end++;
            }
            pieces.add(text.substring(start, end));
            start = end;
        }
        return List.copyOf(pieces);
    }
}
