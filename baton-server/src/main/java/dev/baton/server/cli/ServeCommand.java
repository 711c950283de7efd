package dev.baton.server.cli;

import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.server.app.BatonServer;
import dev.baton.server.app.ServerSettings;
import dev.baton.server.auth.DevSecret;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.JwtSettings;
import dev.baton.server.auth.TokenMinter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "serve", mixinStandardHelpOptions = true, description = "Start the Baton server.")
final class ServeCommand implements Callable<Integer> {

    @Option(names = "--config", description = "Path to baton.yaml (default: ./baton.yaml or $BATON_CONFIG).")
    Path config;

    @Option(names = "--port", description = "Port to listen on (default: $BATON_PORT, server.port or 8080).")
    Integer port;

    @Option(
            names = "--host",
            description = "Address to bind (default: $BATON_HOST, server.host or 127.0.0.1, this machine only; "
                    + "0.0.0.0 exposes the server to the network).")
    String host;

    private final PrintStream out = System.out;

    @Override
    public Integer call() throws InterruptedException {
        Map<String, String> env = System.getenv();
        ConfigFile file = ConfigLoader.read(config, env);
        BatonConfig cfg = ConfigLoader.from(file, env);
        if (port != null) cfg = cfg.withPort(port);
        if (host != null) cfg = cfg.withHost(host);
        // a development secret only when nothing else verifies tokens: with an identity provider, its tokens count
        DevSecret.Kept dev = null;
        if (cfg.jwtSecret() == null && !JwtSettings.jwksConfigured(cfg.section(JwtSettings.SECTION), cfg.env())) {
            dev = devSecret(cfg.dataDir());
            cfg = cfg.withJwtSecret(dev.secret());
        }

        ServerSettings settings = ServerSettings.read(cfg, file);
        // the web page may sign a local browser in as the development user only while tokens use the development secret
        BatonServer server = BatonServer.start(
                settings, BatonServer.Options.defaults(cfg.host()).withGeneratedJwtSecret(dev != null));
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "baton-shutdown"));
        greet(cfg, server, dev);
        new CountDownLatch(1).await(); // serve until the process is stopped
        return ExitCodes.OK;
    }

    private static DevSecret.Kept devSecret(Path dataDir) {
        try {
            return DevSecret.loadOrCreate(dataDir);
        } catch (IOException e) {
            throw new CliFailure(
                    ExitCodes.CONFIG,
                    "cannot keep the development secret in " + DevSecret.file(dataDir) + " (" + e.getMessage()
                            + "): make the data directory writable, or set BATON_JWT_SECRET");
        }
    }

    private void greet(BatonConfig cfg, BatonServer server, DevSecret.Kept dev) {
        boolean everywhere = cfg.host().equals("0.0.0.0") || cfg.host().equals("::");
        boolean loopback = cfg.host().equals("127.0.0.1")
                || cfg.host().equals("localhost")
                || cfg.host().equals("::1");
        String url = "http://" + (everywhere || loopback ? "localhost" : cfg.host()) + ":" + server.port();
        out.println();
        out.println("Baton is running at " + url);
        if (loopback) {
            out.println("Listening on " + cfg.host() + ":" + server.port()
                    + " (this machine only; --host 0.0.0.0 or BATON_HOST=0.0.0.0 exposes it to the network)");
        } else {
            out.println("Listening on " + cfg.host() + ":" + server.port()
                    + (everywhere ? " (every network interface: anyone who can reach this machine can connect)" : ""));
        }
        if (server.simulated()) {
            out.println("*** No model provider configured: answers come from the bundled LLM SIMULATOR. ***");
            out.println("*** Set OPENAI_API_KEY (or OPENAI_BASE_URL) to use a real model.               ***");
        }
        if (dev != null) {
            String token = new TokenMinter(JwtSecret.of(dev.secret()))
                    .mint(
                            TokenMinter.Claims.user("demo", "student"),
                            Clock.systemUTC().instant(),
                            Duration.ofHours(12));
            out.println("No BATON_JWT_SECRET set: tokens are signed with the development secret "
                    + (dev.created() ? "created in " : "kept in ") + dev.file()
                    + ", so they keep working after a restart. A token for user 'demo' (12 h):");
            out.println();
            out.println("  export BATON_TOKEN=" + token);
            out.println();
            out.println("More tokens: ./baton token --user NAME [--role ROLE]");
        } else if (cfg.jwtSecret() != null) {
            out.println("Tokens: ./baton token --user NAME [--role ROLE], with the same BATON_JWT_SECRET"
                    + " (or --config) as this server");
        } else {
            out.println("Tokens come from your identity provider (jwt.jwksUrl / BATON_JWT_JWKS_URL).");
        }
        out.println("Try: open " + url + "/ in a browser, or ./baton chat, or curl (see README)");
        out.flush();
    }
}
