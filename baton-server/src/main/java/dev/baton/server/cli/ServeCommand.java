package dev.baton.server.cli;

import dev.baton.server.app.BatonServer;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.JwtSettings;
import dev.baton.server.auth.TokenMinter;
import dev.baton.server.config.BatonConfig;
import dev.baton.server.config.ConfigLoader;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "serve", mixinStandardHelpOptions = true, description = "Start the Baton server.")
final class ServeCommand implements Callable<Integer> {

    @Option(names = "--config", description = "Path to baton.yaml (default: ./baton.yaml or $BATON_CONFIG).")
    Path config;

    @Option(names = "--port", description = "Port to listen on (default: $BATON_PORT or 8080).")
    Integer port;

    @Option(names = "--host", defaultValue = "0.0.0.0", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Override
    public Integer call() throws InterruptedException {
        BatonConfig cfg = ConfigLoader.load(config, System.getenv());
        if (port != null) cfg = cfg.withPort(port);
        // a dev secret only when nothing else verifies tokens: with an identity provider, its tokens alone count
        boolean generated = cfg.jwtSecret() == null && !JwtSettings.jwksConfigured(cfg.section("jwt"), cfg.env());
        if (generated) cfg = cfg.withJwtSecret(JwtSecret.generate());

        BatonServer server =
                BatonServer.start(cfg, BatonServer.Options.defaults(host).withGeneratedJwtSecret(generated));
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "baton-shutdown"));

        String url = "http://localhost:" + server.port();
        System.out.println();
        System.out.println("Baton is running at " + url);
        if (server.simulated()) {
            System.out.println("*** No model provider configured: answers come from the bundled LLM SIMULATOR. ***");
            System.out.println("*** Set OPENAI_API_KEY (or OPENAI_BASE_URL) to use a real model.               ***");
        }
        if (generated) {
            String token = new TokenMinter(JwtSecret.of(cfg.jwtSecret()))
                    .mint(
                            TokenMinter.Claims.user("demo", "student"),
                            Clock.systemUTC().instant(),
                            Duration.ofHours(12));
            System.out.println("No BATON_JWT_SECRET set: generated one for this run. A token for user 'demo' (12 h):");
            System.out.println();
            System.out.println("  export BATON_TOKEN=" + token);
            System.out.println();
            System.out.println("To mint more tokens, restart with a fixed secret: BATON_JWT_SECRET=... ./baton serve");
        }
        System.out.println("Try: open " + url + "/ in a browser, or ./baton chat, or curl (see README)");
        System.out.flush();
        new CountDownLatch(1).await(); // serve until the process is stopped
        return 0;
    }
}
