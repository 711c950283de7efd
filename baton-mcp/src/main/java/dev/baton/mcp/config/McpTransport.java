package dev.baton.mcp.config;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** How Baton reaches one MCP server: a command it starts and supervises, or a URL an operator configured. */
public sealed interface McpTransport {

    /**
     * A local process speaking MCP over its stdin and stdout.
     *
     * @param env added to the few variables a child inherits (HOME, PATH, USER, …): Baton's own environment, with its
     *     secrets, is never passed on
     */
    record Stdio(String command, List<String> args, Map<String, String> env) implements McpTransport {
        public Stdio {
            Objects.requireNonNull(command, "command");
            if (command.isBlank()) throw new IllegalArgumentException("command is blank");
            args = List.copyOf(args == null ? List.of() : args);
            env = Map.copyOf(env == null ? Map.of() : env);
        }

        /** This command for one user's process: {@code ${BATON_USER_KEY}} filled in everywhere. */
        public Stdio forUser(UserKey key) {
            Map<String, String> filled = new java.util.LinkedHashMap<>();
            env.forEach((k, v) -> filled.put(k, key.fill(v)));
            return new Stdio(key.fill(command), args.stream().map(key::fill).toList(), filled);
        }
    }

    /**
     * A server over HTTP: streamable HTTP, falling back to the legacy HTTP+SSE transport when asked to, or when
     * {@link HttpMode#AUTO} finds the URL does not speak streamable HTTP.
     *
     * @param headers sent with every request (an API key for the server); never the user's token
     * @param protocol which MCP revision to speak; {@link Protocol#AUTO} asks the server ({@code server/discover})
     */
    record Http(URI url, Map<String, String> headers, HttpMode mode, Protocol protocol) implements McpTransport {
        public Http {
            Objects.requireNonNull(url, "url");
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https"))
                throw new IllegalArgumentException("url must be http:// or https://, got " + url);
            if (url.getHost() == null) throw new IllegalArgumentException("url has no host: " + url);
            if (url.getUserInfo() != null)
                throw new IllegalArgumentException("url must not carry credentials; use headers");
            headers = Map.copyOf(headers == null ? Map.of() : headers);
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(protocol, "protocol");
            if (protocol == Protocol.V2026 && mode == HttpMode.SSE)
                throw new IllegalArgumentException(
                        "protocol 2026 has no SSE transport: say transport: auto or streamable");
        }

        /** A server whose protocol revision is found by asking it. */
        public Http(URI url, Map<String, String> headers, HttpMode mode) {
            this(url, headers, mode, mode == HttpMode.SSE ? Protocol.V2025 : Protocol.AUTO);
        }
    }

    /** Which MCP revision to speak with an HTTP server. */
    enum Protocol {
        /**
         * Ask with {@code server/discover}: 2026-07-28 when the server lists it, else the 2025 initialize handshake.
         */
        AUTO,
        /** The initialize handshake and a session (revisions 2025-11-25 down to 2024-11-05). */
        V2025,
        /** Revision 2026-07-28 only: stateless requests, each carrying its protocol version and capabilities. */
        V2026
    }

    /** Which HTTP transport to speak. */
    enum HttpMode {
        /** Streamable HTTP; when the server answers its POST with an error status, the legacy HTTP+SSE transport. */
        AUTO,
        STREAMABLE,
        /** The legacy HTTP+SSE transport (protocol 2024-11-05): GET the URL for an event stream, POST to its endpoint. */
        SSE
    }
}
