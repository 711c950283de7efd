package dev.baton.modules.webhook;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs webhook requests: {@code X-Baton-Signature: sha256=<hex>} where the hex is the HMAC-SHA256, keyed with
 * the shared secret, of {@code <X-Baton-Timestamp> + "." + <raw body bytes>}. Signing the timestamp with the body
 * lets a receiver reject old requests (replays) without trusting an unsigned header.
 */
public final class WebhookSigner {

    /** The signature header. */
    public static final String SIGNATURE_HEADER = "X-Baton-Signature";
    /** Unix seconds at signing; part of the signed payload. */
    public static final String TIMESTAMP_HEADER = "X-Baton-Timestamp";

    private static final String ALGORITHM = "HmacSHA256";
    private static final String PREFIX = "sha256=";

    private final SecretKeySpec key;

    public WebhookSigner(String secret) {
        Objects.requireNonNull(secret, "secret");
        if (secret.isEmpty()) {
            throw new IllegalArgumentException("webhook secret is empty");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
    }

    /** The {@value #SIGNATURE_HEADER} value for {@code body} sent at {@code timestamp} (unix seconds). */
    public String sign(long timestamp, byte[] body) {
        Mac mac = mac();
        mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
        mac.update(body);
        return PREFIX + HexFormat.of().formatHex(mac.doFinal());
    }

    /** Whether {@code signature} is this secret's signature of {@code body} at {@code timestamp}; constant-time. */
    public boolean verify(long timestamp, byte[] body, String signature) {
        if (signature == null) {
            return false;
        }
        return MessageDigest.isEqual(
                sign(timestamp, body).getBytes(StandardCharsets.US_ASCII),
                signature.trim().getBytes(StandardCharsets.US_ASCII));
    }

    private Mac mac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 unavailable", e);
        }
    }
}
