package dev.baton.mcp.client.oauth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key that seals users' tokens: {@code BATON_TOKEN_KEY} (32 random bytes, base64), with the keys it replaced in
 * {@code BATON_TOKEN_KEY_PREVIOUS} (comma-separated) while values sealed with them remain; without it, a development
 * key Baton makes once and keeps in the data directory (readable by its owner only), like the development JWT secret.
 */
public final class TokenKeys {
    private static final Logger log = LoggerFactory.getLogger(TokenKeys.class);

    public static final String KEY_VARIABLE = "BATON_TOKEN_KEY";
    public static final String PREVIOUS_VARIABLE = "BATON_TOKEN_KEY_PREVIOUS";
    /** The development key's file in the data directory. */
    public static final String DEV_FILE = "dev-token-key";

    private TokenKeys() {}

    /**
     * @throws IllegalArgumentException when a configured key is not 32 bytes of base64
     * @throws UncheckedIOException when the development key cannot be kept
     */
    public static TokenCipher cipher(Map<String, String> env, Path dataDir) {
        String key = env.get(KEY_VARIABLE);
        String previous = env.get(PREVIOUS_VARIABLE);
        if (key != null && !key.isBlank()) return TokenCipher.fromBase64(key, previous);
        Path file = dataDir.resolve(DEV_FILE);
        log.warn(
                "{} is not set: users' MCP account tokens are sealed with the development key in {}; set {} in"
                        + " production",
                KEY_VARIABLE,
                file,
                KEY_VARIABLE);
        return TokenCipher.fromBase64(devKey(dataDir, file), previous);
    }

    private static String devKey(Path dataDir, Path file) {
        try {
            if (Files.isRegularFile(file))
                return Files.readString(file, StandardCharsets.UTF_8).strip();
            Files.createDirectories(dataDir);
            boolean posix =
                    dataDir.getFileSystem().supportedFileAttributeViews().contains("posix");
            Path temp = posix
                    ? Files.createTempFile(
                            dataDir,
                            DEV_FILE,
                            ".tmp",
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                    : Files.createTempFile(dataDir, DEV_FILE, ".tmp");
            String key = TokenCipher.generateKey();
            try {
                Files.writeString(temp, key + "\n", StandardCharsets.UTF_8);
                try {
                    Files.move(temp, file);
                } catch (FileAlreadyExistsException raced) {
                    return Files.readString(file, StandardCharsets.UTF_8).strip();
                }
            } finally {
                Files.deleteIfExists(temp);
            }
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the development token key in " + file, e);
        }
    }
}
