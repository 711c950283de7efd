package dev.baton.store.jdbc;

import dev.baton.core.conversation.Session;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;

/**
 * The position after the last session of a page, in the listing order (started_at DESC, id DESC). Opaque to
 * clients: base64url of {@code v1|startedAt|id}.
 */
record SessionCursor(Instant startedAt, String id) {
    private static final String VERSION = "v1";

    static String after(Session last) {
        String raw = VERSION + "|" + ColumnCodec.truncate(last.startedAt()) + "|" + last.id();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException if the text is not a cursor this store issued */
    static SessionCursor parse(String cursor) {
        try {
            String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            String[] parts = raw.split("\\|", 3);
            if (parts.length != 3 || !parts[0].equals(VERSION) || parts[2].isEmpty())
                throw new IllegalArgumentException("invalid cursor");
            return new SessionCursor(Instant.parse(parts[1]), parts[2]);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new IllegalArgumentException("invalid cursor", e);
        }
    }
}
