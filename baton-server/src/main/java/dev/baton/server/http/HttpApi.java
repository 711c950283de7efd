package dev.baton.server.http;

import dev.baton.core.auth.Principal;
import dev.baton.server.auth.AuthException;
import dev.baton.server.auth.JwtAuthenticator;
import dev.baton.server.auth.McpAuthException;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.json.JavalinJackson;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ObjLongConsumer;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The Javalin application: request ids, authentication of everything under /v1 and of /mcp, access log, error mapping,
 * and the routes handed in. Handlers run on virtual threads, so blocking on the model or the database is fine.
 *
 * <p>One port speaks HTTP/1.1 and HTTP/2 cleartext (h2c, with prior knowledge or by an HTTP/1.1 {@code Upgrade: h2c}),
 * so that a client or proxy can multiplex many SSE streams over a few connections instead of holding a socket, and a
 * file descriptor on the server, per stream.
 */
public final class HttpApi {
    private static final Logger access = LoggerFactory.getLogger("baton.access");

    /**
     * How many requests one HTTP/2 connection may have open at once (Jetty's default is 128): enough for a proxy or
     * load client that multiplexes a thousand SSE streams on one connection; a client past it gets streams refused.
     */
    public static final int MAX_STREAMS_PER_CONNECTION = 1000;

    private static final int RESPONSE_COPY_BUFFER_BYTES = 4096;

    private HttpApi() {}

    public static Javalin create(
            String host, int port, JwtAuthenticator auth, List<Consumer<RoutesConfig>> routeGroups) {
        return create(host, port, HttpSettings.DEFAULTS, auth, routeGroups, (ctx, nanos) -> {});
    }

    /**
     * @param timer hears of every finished request with how long it took in nanoseconds (request metrics); it runs
     *     in the after-handler, once the status is final
     */
    public static Javalin create(
            String host,
            int port,
            HttpSettings settings,
            JwtAuthenticator auth,
            List<Consumer<RoutesConfig>> routeGroups,
            ObjLongConsumer<Context> timer) {
        return Javalin.create(config -> {
            config.jetty.host = host;
            config.jetty.port = port;
            // Baton's own connector (Javalin then adds none): the listen backlog is configured, not Jetty's 50.
            // HTTP/1.1 first, as the default protocol: it hands a prior-knowledge preface or an Upgrade to h2c
            config.jetty.addConnector((server, http) -> {
                HTTP2CServerConnectionFactory h2c = new HTTP2CServerConnectionFactory(http);
                h2c.setMaxConcurrentStreams(MAX_STREAMS_PER_CONNECTION);
                ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http), h2c);
                connector.setHost(host);
                connector.setPort(port);
                connector.setAcceptQueueSize(settings.acceptQueue());
                return connector;
            });
            // errors Jetty answers itself (a malformed request never reaches the routes) get the JSON body too
            config.jetty.modifyServer(server -> server.setErrorHandler(new JsonErrorHandler()));
            config.concurrency.useVirtualThreads = true;
            // compression would buffer the SSE stream
            config.http.compressionStrategy = CompressionStrategy.NONE;
            // the buffer Javalin copies each answer through, new for every answer (32 KB by default, for bodies that
            // are mostly under 2 KB); Jetty gathers the writes into its own output buffer either way
            config.http.responseBufferSize = RESPONSE_COPY_BUFFER_BYTES;
            config.jsonMapper(new JavalinJackson(Json.MAPPER, true));
            config.startup.showJavalinBanner = false;
            RoutesConfig routes = config.routes;
            routes.before(ctx -> {
                String requestId = RequestIds.accept(ctx.header(RequestIds.HEADER));
                ctx.attribute(RequestIds.ATTRIBUTE, requestId);
                ctx.attribute("baton.startNanos", System.nanoTime());
                ctx.header(RequestIds.HEADER, requestId);
                // every answer, refusals included: a browser never guesses a JSON (or event-stream) body to be HTML
                ctx.header("X-Content-Type-Options", "nosniff");
                MDC.put("requestId", requestId);
            });
            // the v1 API and the designs' own APIs (/api/..., /chat/..., /sessions/..., /admin/...) are all for
            // signed-in callers
            for (String path : List.of("/v1/*", "/api/*", "/chat/*", "/sessions", "/sessions/*", "/admin/*")) {
                routes.before(path, ctx -> {
                    var principal = auth.authenticate(ctx.header("Authorization"));
                    Caller.set(ctx, principal);
                    MDC.put("userId", principal.userId());
                });
            }
            // and Baton's MCP endpoint: the same caller, by a token for /mcp's own audience when it has one; a refusal
            // there also points an MCP client at the protected resource metadata
            routes.before("/mcp", ctx -> {
                String authorization = ctx.header("Authorization");
                Principal principal;
                try {
                    principal = auth.authenticateForMcp(authorization);
                } catch (AuthException e) {
                    boolean presented = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7);
                    throw new McpAuthException(e.getMessage(), presented);
                }
                Caller.set(ctx, principal);
                MDC.put("userId", principal.userId());
            });
            routes.after(ctx -> {
                // what a route left of the request body is read (bounded) before the answer is written: left
                // unread, Jetty closes the connection after the answer, and a client that has already picked that
                // connection for its next request gets no answer at all
                RequestBody.discardUnread(ctx.req().getInputStream());
                Long start = ctx.attribute("baton.startNanos");
                long nanos = start == null ? -1 : System.nanoTime() - start;
                long millis = nanos < 0 ? -1 : nanos / 1_000_000;
                access.atInfo()
                        .addKeyValue("event", "request_finished")
                        .addKeyValue("method", ctx.method().name())
                        .addKeyValue("path", ctx.path())
                        .addKeyValue("status", ctx.statusCode())
                        .addKeyValue("durationMs", millis)
                        .log(
                                "{} {} {} {} {}ms",
                                ctx.method(),
                                ctx.path(),
                                ctx.req().getProtocol(),
                                ctx.statusCode(),
                                millis);
                if (nanos >= 0) timer.accept(ctx, nanos);
                MDC.clear();
            });
            ErrorResponses.register(routes);
            routeGroups.forEach(g -> g.accept(routes));
        });
    }

    /** The routes {@code app} answers (its HTTP endpoints, not its before and after filters), in registration order. */
    public static List<HttpRoute> routes(Javalin app) {
        return app.unsafe.internalRouter.allHttpHandlers().stream()
                .map(parsed -> parsed.endpoint)
                .filter(endpoint -> endpoint.method.isHttpMethod())
                .map(endpoint -> new HttpRoute(endpoint.method.name(), endpoint.path))
                .toList();
    }
}
