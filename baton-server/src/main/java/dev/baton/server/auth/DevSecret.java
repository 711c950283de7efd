package dev.baton.server.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;

/**
 * The development signing secret. With no {@code BATON_JWT_SECRET} and no JWKS URL, {@code baton serve} signs tokens
 * with a secret it keeps in the data directory (readable by its owner only) and reuses on the next start, so that a
 * token exported yesterday, or the one the browser saved, still works after a restart; {@code baton token} uses it too.
 */
public final class DevSecret {

    /** The file's name in the data directory. */
    public static final String FILE_NAME = "dev-jwt-secret";

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    /**
     * @param file where the secret is kept
     * @param created true when this call made it (the first start)
     */
    public record Kept(String secret, Path file, boolean created) {
        @Override
        public String toString() {
            return "Kept[secret=***, file=" + file + ", created=" + created + "]";
        }
    }

    private DevSecret() {}

    /** Where the secret is kept under {@code dataDir}. */
    public static Path file(Path dataDir) {
        return dataDir.resolve(FILE_NAME);
    }

    /** The kept secret, if a server has made one in {@code dataDir}. */
    public static Optional<String> load(Path dataDir) throws IOException {
        Path file = file(dataDir);
        if (!Files.isRegularFile(file)) return Optional.empty();
        String secret = Files.readString(file, StandardCharsets.UTF_8).strip();
        return secret.isEmpty() ? Optional.empty() : Optional.of(secret);
    }

    /** The kept secret, made (and kept, owner-only) when there is none yet. */
    public static Kept loadOrCreate(Path dataDir) throws IOException {
        Optional<String> existing = load(dataDir);
        if (existing.isPresent()) return new Kept(existing.get(), file(dataDir), false);
        Files.createDirectories(dataDir);
        Path file = file(dataDir);
        String secret = JwtSecret.generate();
        // written whole under another name with its permissions already set, then moved: no reader ever sees a
        // half-written or world-readable secret
        Path temp = posix(dataDir)
                ? Files.createTempFile(dataDir, FILE_NAME, ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                : Files.createTempFile(dataDir, FILE_NAME, ".tmp");
        try {
            Files.writeString(temp, secret + "\n", StandardCharsets.UTF_8);
            try {
                Files.move(temp, file);
            } catch (FileAlreadyExistsException raced) {
                // another server started at the same moment and kept its own: use that one
                return new Kept(load(dataDir).orElseThrow(), file, false);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
        return new Kept(secret, file, true);
    }

    private static boolean posix(Path dir) {
        return dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
