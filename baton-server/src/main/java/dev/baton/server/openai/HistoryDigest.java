package dev.baton.server.openai;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The digest of a conversation history as a client sends it: SHA-256 chained over the caller, the agent and each user
 * or assistant message in order, so the digest of a history and its next two messages is the digest of the history
 * extended by them, without hashing the history again. Texts are taken with surrounding white space stripped, so a
 * client that trims the answers it got back still finds its session.
 */
record HistoryDigest(byte[] value) {

    /** The digest of an empty history of {@code userId} (in {@code tenant}) with {@code agentId}. */
    static HistoryDigest start(String tenant, String userId, String agentId) {
        return new HistoryDigest(sha256(new byte[0], "start", tenant + "\u0000" + userId + "\u0000" + agentId));
    }

    /** This history followed by one message. */
    HistoryDigest then(String role, String text) {
        return new HistoryDigest(sha256(value, role, text.strip()));
    }

    /** The digest as text, the key {@code HistoryKeys} stores. */
    String hex() {
        return HexFormat.of().formatHex(value);
    }

    private static byte[] sha256(byte[] previous, String role, String text) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(previous);
            sha.update(role.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(text.getBytes(StandardCharsets.UTF_8));
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
