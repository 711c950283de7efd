package dev.baton.server.app;

import dev.baton.app.BatonApp;
import dev.baton.app.OpenedResources;
import dev.baton.app.config.BatonConfig;
import dev.baton.runtime.Baton;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.conversation.HistoryKeys;
import dev.baton.server.a2a.A2aRoutes;
import dev.baton.server.a2a.A2aSettings;
import dev.baton.server.api.McpResourceMetadata;
import dev.baton.server.api.OpenApiRoutes;
import dev.baton.server.auth.JwtAuthenticator;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.JwtSettings;
import dev.baton.server.compat.CompatRoutes;
import dev.baton.server.compat.CompatSettings;
import dev.baton.server.http.HttpApi;
import dev.baton.server.http.HttpRoute;
import dev.baton.server.http.HttpSettings;
import dev.baton.server.http.SseStreams;
import dev.baton.server.metrics.BatonMetrics;
import dev.baton.server.metrics.HttpMetrics;
import dev.baton.server.metrics.MetricsRoutes;
import dev.baton.server.openai.HistoryKeyExpiry;
import dev.baton.server.openai.OpenAiRoutes;
import dev.baton.server.trace.TraceContextRoutes;
import dev.baton.server.trace.Tracing;
import dev.baton.server.web.DevSignIn;
import dev.baton.server.web.WebPageRoutes;
import dev.baton.server.web.WebPageSettings;
import dev.baton.store.jdbc.JdbcHistoryKeys;
import io.javalin.Javalin;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Baton instance behind its HTTP API: the Baton that {@link BatonApp} assembles from the configuration, with the
 * server's metrics and traces on it, served by Javalin.
 */
public final class BatonServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BatonServer.class);

    private final Javalin http;
    private final BatonApp app;
    /** What the server opened around the app (metrics, tracing), closed after it. */
    private final OpenedResources opened;

    private BatonServer(Javalin http, BatonApp app, OpenedResources opened) {
        this.http = http;
        this.app = app;
        this.opened = opened;
    }

    /**
     * How to run an instance beyond its configuration.
     *
     * @param sseHeartbeat how often a quiet SSE stream is probed for a client that went away
     * @param simulatorBaseUrl an already running simulator for "simulator:*" models (tests); null starts the
     *     bundled one when no provider is configured
     * @param generatedJwtSecret the configuration's JWT secret was generated for this run ({@code baton serve} with
     *     none configured): the web page may then sign a local browser in as the development user
     */
    public record Options(
            String host, Clock clock, Duration sseHeartbeat, String simulatorBaseUrl, boolean generatedJwtSecret) {

        /** Options for a server whose JWT secret was configured, not generated. */
        public Options(String host, Clock clock, Duration sseHeartbeat, String simulatorBaseUrl) {
            this(host, clock, sseHeartbeat, simulatorBaseUrl, false);
        }

        public static Options defaults(String host) {
            return new Options(host, Clock.systemUTC(), Duration.ofSeconds(1), null);
        }

        /** These options, saying whether the JWT secret was generated for this run. */
        public Options withGeneratedJwtSecret(boolean generated) {
            return new Options(host, clock, sseHeartbeat, simulatorBaseUrl, generated);
        }
    }

    /** Starts on {@code config.port()} (0 picks a free port). */
    public static BatonServer start(BatonConfig config, Options options) {
        return start(ServerSettings.read(config), options);
    }

    /** Starts with settings already read and checked (see {@link ServerSettings#read}). */
    public static BatonServer start(ServerSettings settings, Options options) {
        BatonConfig config = settings.config();
        JwtAuthenticator auth = JwtAuthenticator.create(settings.jwt(), config.rolePermissions());
        CompatSettings compat = CompatSettings.parse(config.section("compat"));
        HttpSettings http = httpSettings(config);
        OpenedResources opened = new OpenedResources();
        try {
            BatonMetrics metrics = opened.add(BatonMetrics.create(settings.metrics()));
            Tracing tracing = opened.add(Tracing.start(settings.tracing()));
            BatonApp app = opened.add(BatonApp.start(
                    settings.app(),
                    new BatonApp.Options(
                            options.clock(), options.simulatorBaseUrl(), new ServerInstrumentation(metrics, tracing))));
            Baton baton = app.baton();
            SseStreams sse = new SseStreams(http.sseBufferBytes(), options.sseHeartbeat(), metrics.registry());
            List<Consumer<RoutesConfig>> routes = new ArrayList<>(ServerRoutes.api(app, sse));
            routes.addAll(ServerRoutes.domains(app, config.maxBodyBytes()));
            routes.add(new MetricsRoutes(metrics)::register);
            routes.add(webPage(config, options)::register);
            routes.add(new OpenApiRoutes()::register);
            if (tracing.isOn()) {
                routes.add(new TraceContextRoutes(
                        tracing.openTelemetry().getPropagators().getTextMapPropagator())::register);
            }
            routes.addAll(CompatRoutes.groups(compat, app, config.maxBodyBytes(), sse));
            // the OpenAI-compatible door; the digests of its clients' histories live in the database (any instance)
            HistoryKeys historyKeys = new JdbcHistoryKeys(app.database());
            opened.add(HistoryKeyExpiry.start(historyKeys, options.clock()));
            routes.add(new OpenAiRoutes(baton, historyKeys, config.maxBodyBytes(), sse, options.clock())::register);
            routes.addAll(A2aRoutes.groups(
                    A2aSettings.parse(config.section("a2a")),
                    baton,
                    settings.jwt().jwksUrl() != null ? settings.jwt().issuer() : null,
                    config.maxBodyBytes(),
                    sse,
                    options.clock()));
            routes.addAll(McpResourceMetadata.groups(settings.jwt()));
            Javalin server = HttpApi.create(
                    options.host(), config.port(), http, auth, routes, new HttpMetrics(metrics.registry())::record);
            server.start();
            log.info(
                    "baton listening on http://{}:{} (accept queue {}, database {}, model {})",
                    options.host(),
                    server.port(),
                    http.acceptQueue(),
                    app.database().dialect(),
                    app.modelMode());
            log.info("limits: {}", baton.describeLimits());
            return new BatonServer(server, app, opened);
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    /** The web app; development sign-in only when this run generated its secret and no identity provider is set. */
    private static WebPageRoutes webPage(BatonConfig config, Options options) {
        boolean devSignIn = options.generatedJwtSecret()
                && config.jwtSecret() != null
                && !JwtSettings.jwksConfigured(config.section("jwt"), config.env());
        return new WebPageRoutes(
                WebPageSettings.parse(config.section("web")),
                devSignIn
                        ? DevSignIn.withGeneratedSecret(JwtSecret.of(config.jwtSecret()), options.clock())
                        : DevSignIn.off());
    }

    private static HttpSettings httpSettings(BatonConfig config) {
        try {
            return HttpSettings.from(config.section("server"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    public int port() {
        return http.port();
    }

    /** Every route this server answers, as method and path template (what the API document must describe). */
    public List<HttpRoute> routes() {
        return HttpApi.routes(http);
    }

    /** The runtime this server is the HTTP front door of. */
    public Baton runtime() {
        return app.baton();
    }

    /** The assembled Baton behind the HTTP API. */
    public BatonApp app() {
        return app;
    }

    /** True when the bundled simulator answers instead of a real model. */
    public boolean simulated() {
        return app.simulated();
    }

    @Override
    public void close() {
        http.stop();
        opened.close();
    }
}
