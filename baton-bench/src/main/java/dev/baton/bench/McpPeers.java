package dev.baton.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.testkit.npm.NpmPackages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The MCP server the MCP benchmarks call: server-everything from npm (its {@code echo} tool), over stdio (Baton starts
 * it) or over streamable HTTP (started here, on a free port). Installed into {@code baton-bench/target/npm}.
 */
final class McpPeers implements AutoCloseable {
    private final Path installed = NpmPackages.require(Path.of("baton-bench", "target", "npm"));
    private final Path everything =
            NpmPackages.script(installed, "@modelcontextprotocol/server-everything", "dist/index.js");
    private Process http;
    private int port;

    /** baton.yaml's {@code mcp} section with one server named "everything" over the given wire. */
    /** The role of the benchmark's caller, with whom the server's data is shared. */
    static final String ROLE = "bench";

    ObjectNode mcpSection(String wire) {
        ObjectNode mcp = JsonNodeFactory.instance.objectNode();
        ObjectNode server = mcp.putObject("servers").putObject("everything");
        // one connection for the benchmark's one caller: what is measured is a call, not starting a process per user
        server.put("state", "shared").putArray("sharedWith").add(ROLE);
        if (wire.equals("stdio")) {
            server.put("command", NpmPackages.node());
            server.putArray("args").add(everything.toString()).add("stdio");
        } else {
            server.put("url", "http://127.0.0.1:" + startHttp() + "/mcp");
        }
        return mcp;
    }

    private int startHttp() {
        if (http != null) return port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ProcessBuilder builder = new ProcessBuilder(
                        List.of(NpmPackages.node(), everything.toString(), "streamableHttp"))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("PORT", Integer.toString(port));
        try {
            http = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!listening()) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("server-everything did not listen");
            Thread.onSpinWait();
        }
        return port;
    }

    private boolean listening() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 100);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (http != null) http.destroyForcibly();
    }
}
