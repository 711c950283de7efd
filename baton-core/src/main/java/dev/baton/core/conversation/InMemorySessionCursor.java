package dev.baton.core.conversation;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Comparator;

/**
 * The position after the last session of a page of {@link InMemoryConversationStore#listSessions}, in the listing
 * order (newest first, the id breaking ties). Opaque to callers: base64url of {@code v1|startedAt|id}.
 */
record InMemorySessionCursor(Instant startedAt, String id) {
    private static final String VERSION = "v1";

    /** The listing order. */
    static final Comparator<Session> ORDER =
            Comparator.comparing(Session::startedAt).thenComparing(Session::id).reversed();

    static String after(Session last) {
        String raw = VERSION + "|" + last.startedAt() + "|" + last.id();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException if the text is not a cursor this store issued */
    static InMemorySessionCursor parse(String cursor) {
        try {
            String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            String[] parts = raw.split("\\|", 3);
            if (parts.length != 3 || !parts[0].equals(VERSION) || parts[2].isEmpty()) {
                throw new IllegalArgumentException("invalid cursor");
            }
            return new InMemorySessionCursor(Instant.parse(parts[1]), parts[2]);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new IllegalArgumentException("invalid cursor", e);
        }
    }

    /** Whether the session comes after this position in the listing order. */
    boolean comesBefore(Session s) {
        int byTime = s.startedAt().compareTo(startedAt);
        return byTime < 0 || (byTime == 0 && s.id().compareTo(id) < 0);
    }
}
