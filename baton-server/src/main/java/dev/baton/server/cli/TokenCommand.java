package dev.baton.server.cli;

import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.core.config.Durations;
import dev.baton.server.auth.DevSecret;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.TokenMinter;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "token",
        mixinStandardHelpOptions = true,
        description = "Mint a token (HS256) signed with BATON_JWT_SECRET, auth.jwtSecret, or the development secret "
                + "a server without either keeps in its data directory.")
final class TokenCommand implements Callable<Integer> {

    @Option(names = "--user", required = true, description = "User id (the token subject).")
    String user;

    @Option(names = "--role", description = "Role; repeat for several (default: student).")
    List<String> roles = new ArrayList<>();

    @Option(names = "--name", description = "Display name.")
    String name;

    @Option(names = "--email", description = "E-mail address.")
    String email;

    @Option(names = "--tenant", description = "Tenant (organisation).")
    String tenant;

    @Option(names = "--class", description = "Class or group; repeat for several.")
    List<String> classes = new ArrayList<>();

    @Option(
            names = "--ttl",
            defaultValue = "12h",
            description = "Lifetime, e.g. 30m, 12h, 7d (default: ${DEFAULT-VALUE}).")
    String ttl;

    @Option(names = "--config", description = "Path to baton.yaml, to read auth.jwtSecret from.")
    Path config;

    @Override
    public Integer call() {
        Duration lifetime;
        try {
            lifetime = Durations.parse(ttl, "--ttl");
        } catch (IllegalArgumentException e) {
            throw new CliFailure(ExitCodes.USAGE, e.getMessage());
        }
        BatonConfig cfg = ConfigLoader.load(config, System.getenv());
        String secret = cfg.jwtSecret() != null ? cfg.jwtSecret() : devSecret(cfg.dataDir());
        TokenMinter.Claims claims = new TokenMinter.Claims(
                user, name, email, roles.isEmpty() ? List.of("student") : roles, tenant, classes);
        System.out.println(new TokenMinter(JwtSecret.of(secret))
                .mint(claims, Clock.systemUTC().instant(), lifetime));
        return ExitCodes.OK;
    }

    private static String devSecret(Path dataDir) {
        try {
            return DevSecret.load(dataDir)
                    .orElseThrow(() -> new CliFailure(
                            ExitCodes.CONFIG,
                            "no secret: set BATON_JWT_SECRET to the server's secret (32+ characters, e.g. export "
                                    + "BATON_JWT_SECRET=$(openssl rand -base64 32)), or run ./baton serve once"
                                    + " without one so that it keeps a development secret in "
                                    + DevSecret.file(dataDir)));
        } catch (IOException e) {
            throw new CliFailure(
                    ExitCodes.CONFIG, "cannot read the development secret " + DevSecret.file(dataDir) + ": " + e);
        }
    }
}
