package dev.baton.server.cli;

import dev.baton.app.config.ConfigLoader;
import dev.baton.server.auth.DevSecret;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.TokenMinter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The token a command that talks to a server acts with: {@code --token}, else $BATON_TOKEN, else one minted for a
 * given user and role with the development secret a server started in the same folder keeps (so that the commands
 * work right after {@code ./baton serve}; whoever can read that secret is that server's operator anyway).
 */
final class CallerToken {
    private CallerToken() {}

    static String resolve(String given, Map<String, String> env, PrintStream out, String user, String role) {
        if (given != null && !given.isBlank()) return given.strip();
        String fromEnv = env.get("BATON_TOKEN");
        if (fromEnv != null && !fromEnv.isBlank()) return fromEnv.strip();
        Path dataDir = dataDir(env);
        Optional<String> dev;
        try {
            dev = DevSecret.load(dataDir);
        } catch (IOException e) {
            dev = Optional.empty();
        }
        if (dev.isEmpty())
            throw new CliFailure(
                    ExitCodes.UNAUTHORIZED,
                    "no token: pass --token or export BATON_TOKEN (./baton serve prints one; ./baton token mints more)");
        out.println("(no BATON_TOKEN: acting as user '" + user + "' (role " + role
                + "), with the development secret in " + DevSecret.file(dataDir) + ")");
        return new TokenMinter(JwtSecret.of(dev.get()))
                .mint(TokenMinter.Claims.user(user, role), Clock.systemUTC().instant(), Duration.ofHours(12));
    }

    /** Where a server started here keeps its development secret; nothing else of baton.yaml is needed. */
    private static Path dataDir(Map<String, String> env) {
        try {
            return ConfigLoader.load(null, env).dataDir();
        } catch (RuntimeException notUsable) {
            String dir = env.get("BATON_DATA_DIR");
            return Path.of(dir != null && !dir.isBlank() ? dir : "data");
        }
    }
}
