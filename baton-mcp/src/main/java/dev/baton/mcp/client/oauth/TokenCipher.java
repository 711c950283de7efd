package dev.baton.mcp.client.oauth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals users' tokens (and the state of an authorization in flight) with AES-256-GCM: encrypted and authenticated, and
 * bound to what they belong to (the associated data, e.g. the user and server of a token), so a sealed value copied to
 * another user's row does not open. A sealed value reads {@code v1.<keyId>.<base64url(iv ‖ ciphertext)>}: it names its
 * key, so keys can be rotated — the current key seals, the current and the previous ones open, and a value sealed with a
 * previous key is sealed again with the current one the next time it is saved.
 */
public final class TokenCipher {
    private static final String VERSION = "v1";
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String currentId;
    /** Key id to key; the current first. */
    private final Map<String, SecretKeySpec> keys;

    /**
     * @param current 32 bytes: the key that seals
     * @param previous keys that still open what they sealed (until every value was sealed again)
     */
    public TokenCipher(byte[] current, List<byte[]> previous) {
        Map<String, SecretKeySpec> all = new LinkedHashMap<>();
        this.currentId = put(all, current);
        for (byte[] old : previous == null ? List.<byte[]>of() : previous) put(all, old);
        this.keys = Map.copyOf(all);
    }

    /**
     * A cipher from base64 keys, as {@code BATON_TOKEN_KEY} (the current one) and {@code BATON_TOKEN_KEY_PREVIOUS}
     * (comma-separated) carry them.
     *
     * @throws IllegalArgumentException naming the variable whose key is not 32 bytes of base64
     */
    public static TokenCipher fromBase64(String current, String previous) {
        byte[] key = decode(current, "BATON_TOKEN_KEY");
        List<byte[]> old = previous == null || previous.isBlank()
                ? List.of()
                : java.util.Arrays.stream(previous.split(","))
                        .map(String::strip)
                        .filter(s -> !s.isEmpty())
                        .map(s -> decode(s, "BATON_TOKEN_KEY_PREVIOUS"))
                        .toList();
        return new TokenCipher(key, old);
    }

    /** A new random key, base64: what {@code BATON_TOKEN_KEY} holds (and the development key file). */
    public static String generateKey() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    /** Encrypts {@code plain}, bound to {@code boundTo}, with the current key. */
    public String seal(String plain, String boundTo) {
        byte[] iv = new byte[IV_BYTES];
        RANDOM.nextBytes(iv);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, keys.get(currentId), new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(boundTo.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plain.getBytes(StandardCharsets.UTF_8));
            byte[] out = new byte[IV_BYTES + sealed.length];
            System.arraycopy(iv, 0, out, 0, IV_BYTES);
            System.arraycopy(sealed, 0, out, IV_BYTES, sealed.length);
            return VERSION + "." + currentId + "."
                    + Base64.getUrlEncoder().withoutPadding().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    /**
     * Decrypts what {@link #seal} made for the same {@code boundTo}.
     *
     * @throws SealBroken when the value is malformed, was sealed with a key not configured here, was changed, or belongs
     *     to something else
     */
    public String open(String sealed, String boundTo) {
        String[] parts = sealed == null ? new String[0] : sealed.split("\\.", 3);
        if (parts.length != 3 || !parts[0].equals(VERSION)) throw new SealBroken("not a sealed value");
        SecretKeySpec key = keys.get(parts[1]);
        if (key == null) throw new SealBroken("sealed with key " + parts[1] + ", which is not configured");
        try {
            byte[] in = Base64.getUrlDecoder().decode(parts[2]);
            if (in.length <= IV_BYTES) throw new SealBroken("too short");
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, in, 0, IV_BYTES));
            cipher.updateAAD(boundTo.getBytes(StandardCharsets.UTF_8));
            return new String(cipher.doFinal(in, IV_BYTES, in.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            throw new SealBroken("does not open: " + e.getClass().getSimpleName());
        }
    }

    /** Whether a sealed value was sealed with a key other than the current one (so should be sealed again). */
    public boolean sealedWithOldKey(String sealed) {
        String[] parts = sealed.split("\\.", 3);
        return parts.length < 2 || !parts[1].equals(currentId);
    }

    /** A sealed value that does not open here. */
    public static final class SealBroken extends RuntimeException {
        public SealBroken(String message) {
            super(message, null, false, false);
        }
    }

    private static String put(Map<String, SecretKeySpec> keys, byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length != 32) throw new IllegalArgumentException("a token key must be 32 bytes, got " + key.length);
        String id = keyId(key);
        keys.putIfAbsent(id, new SecretKeySpec(key, "AES"));
        return id;
    }

    /** A short name of a key that says nothing about it: the first 4 bytes of its SHA-256, in hex. */
    private static String keyId(byte[] key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key);
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] decode(String base64, String variable) {
        try {
            byte[] key = Base64.getDecoder()
                    .decode(Objects.requireNonNull(base64, variable).strip());
            if (key.length != 32) throw new IllegalArgumentException();
            return key;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    variable + " must be 32 random bytes in base64 (e.g. openssl rand" + " -base64 32)");
        }
    }
}
