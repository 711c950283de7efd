package dev.baton.server.auth;

import dev.baton.runtime.config.ConfigException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

/** The HS256 signing secret, held as bytes. HS256 needs at least 256 bits. */
public record JwtSecret(byte[] bytes) {
    public JwtSecret {
        if (bytes.length < 32) {
            throw new ConfigException("BATON_JWT_SECRET must be at least 32 bytes (256 bits) for HS256");
        }
        bytes = bytes.clone();
    }

    public static JwtSecret of(String secret) {
        return new JwtSecret(secret.getBytes(StandardCharsets.UTF_8));
    }

    /** A fresh random secret, for a run with none configured. */
    public static String generate() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }
}
