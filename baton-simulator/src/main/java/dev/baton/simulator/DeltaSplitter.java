package dev.baton.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Cuts an answer into the small pieces a streaming model would send. */
final class DeltaSplitter {

    private static final Pattern WORD = Pattern.compile("\\s*\\S+");
    private static final int CHARACTERS_PER_TOKEN = 4;

    private DeltaSplitter() {}

    /** Groups of {@code wordsPerPiece} words, each carrying the whitespace before it; joined they give the text. */
    static List<String> words(String text, int wordsPerPiece) {
        var pieces = new ArrayList<String>();
        var matcher = WORD.matcher(text);
        var piece = new StringBuilder();
        int words = 0;
        int end = 0;
        while (matcher.find()) {
            piece.append(matcher.group());
            end = matcher.end();
            if (++words == wordsPerPiece) {
                pieces.add(piece.toString());
                piece.setLength(0);
                words = 0;
            }
        }
        piece.append(text.substring(end)); // trailing whitespace, or all of a whitespace-only text
        if (!piece.isEmpty()) {
            if (words == 0 && !pieces.isEmpty()) {
                pieces.set(pieces.size() - 1, pieces.getLast() + piece);
            } else {
                pieces.add(piece.toString());
            }
        }
        return List.copyOf(pieces);
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
