package dev.baton.runtime.conversation;

import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;

/**
 * The input rules for a user message (DESIGN §5): control characters other than \n \r \t are stripped,
 * NUL is rejected outright, and what remains must be 1 to 10,000 characters.
 */
public final class MessageContent {

    public static final int MAX_CHARS = 10_000;

    private MessageContent() {}

    /**
     * The message as it is stored and sent to the model.
     *
     * @throws RefusalException {@link Refusal.InvalidInput} when the message breaks a rule
     */
    public static String normalize(String raw) {
        if (raw == null) throw refused("invalid_request", "field 'content' is required");
        if (raw.indexOf('\0') >= 0) {
            throw refused("invalid_content", "message must not contain NUL characters");
        }
        StringBuilder sb = new StringBuilder(raw.length());
        raw.codePoints().filter(MessageContent::allowed).forEach(sb::appendCodePoint);
        String cleaned = sb.toString();
        if (cleaned.isBlank()) throw refused("invalid_content", "message must not be empty");
        int length = cleaned.codePointCount(0, cleaned.length());
        if (length > MAX_CHARS) {
            throw refused("message_too_long", "message is " + length + " characters; the limit is " + MAX_CHARS);
        }
        return cleaned;
    }

    private static RefusalException refused(String code, String message) {
        return new RefusalException(new Refusal.InvalidInput(code, message));
    }

    private static boolean allowed(int cp) {
        if (cp == '\n' || cp == '\r' || cp == '\t') return true;
        // C0 and C1 controls and DEL carry no text; they are stripped rather than rejected
        return !(cp < 0x20 || (cp >= 0x7f && cp <= 0x9f));
    }
}
