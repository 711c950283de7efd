package dev.baton.testkit.npm;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Real npm packages for tests that need a peer nobody here wrote (the MCP reference servers, the TypeScript MCP SDK),
 * installed by the tests themselves into a folder under the module's {@code target/}. When Node or npm is missing, or
 * the registry cannot be reached, the test is skipped with the reason — unless {@code CI=true}, where that is a
 * failure, as for {@link dev.baton.testkit.db.PostgresTestDatabase}.
 *
 * <p>Versions are pinned here, so every test runs against the same servers.
 */
public final class NpmPackages {
    public static final String SERVER_EVERYTHING = "@modelcontextprotocol/server-everything@2026.8.31";
    public static final String SERVER_MEMORY = "@modelcontextprotocol/server-memory@2026.8.31";
    public static final String TYPESCRIPT_SDK = "@modelcontextprotocol/sdk@1.32.2";
    /** The TypeScript SDK's v2 client, which speaks MCP 2026-07-28 (and falls back to the 2025 handshake). */
    public static final String TYPESCRIPT_CLIENT = "@modelcontextprotocol/client@2.4.0";
    /** The TypeScript SDK's v2 server, which serves MCP 2026-07-28 (a peer for Baton's client). */
    public static final String TYPESCRIPT_SERVER = "@modelcontextprotocol/server@2.4.0";
    /** The MCP Inspector 2.x, whose {@code --cli} mode is a 2026-07-28 (and 2025) client. */
    public static final String INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";
    /** The official OpenAI client for JavaScript, as a client of Baton's OpenAI-compatible door. */
    public static final String OPENAI = "openai@7.59.0";
    /** The A2A JavaScript SDK, as a client of Baton's A2A door and as a remote agent Baton calls. */
    public static final String A2A_SDK = "@a2a-js/sdk@1.3.0";
    /** Express, the A2A SDK's peer for its server side: a remote A2A agent in a test. */
    public static final String EXPRESS = "express@5.1.0";
    /** A certified OpenID provider: the identity provider of the OAuth discovery tests of {@code /mcp}. */
    public static final String OIDC_PROVIDER = "oidc-provider@9.13.3";

    /** The MCP peers: the reference servers and the TypeScript SDK, installed together under {@code target/npm}. */
    public static final List<String> MCP_PEERS = List.of(SERVER_EVERYTHING, SERVER_MEMORY, TYPESCRIPT_SDK);

    private static final Map<Path, Path> INSTALLED = new ConcurrentHashMap<>();

    private NpmPackages() {}

    /** The folder holding {@code node_modules} with the MCP test packages, installed on first use. */
    public static Path require() {
        return require(Path.of("target", "npm"));
    }

    /** The packages installed into {@code folder} (benchmarks keep theirs elsewhere). */
    public static Path require(Path folder) {
        return require(folder, MCP_PEERS);
    }

    /**
     * The given {@code packages} (pinned {@code name@version} specs) installed into {@code folder}; each set of packages
     * gets a folder of its own, so that installing one never changes another's.
     */
    public static synchronized Path require(Path folder, List<String> packages) {
        Path dir = folder.toAbsolutePath();
        Path done = INSTALLED.get(dir);
        if (done != null) return done;
        String node = which("node");
        String npm = which("npm");
        if (node == null || npm == null) unavailable("node and npm are not on the PATH");
        try {
            Files.createDirectories(dir);
            Path marker = dir.resolve("installed.txt");
            String wanted = String.join("\n", packages);
            if (!Files.isRegularFile(marker) || !Files.readString(marker).equals(wanted)) {
                if (!Files.exists(dir.resolve("package.json")))
                    Files.writeString(dir.resolve("package.json"), "{\"name\":\"baton-test-peers\",\"private\":true}");
                List<String> command = new ArrayList<>(
                        List.of(npm, "install", "--no-audit", "--no-fund", "--loglevel=error", "--no-save"));
                command.addAll(packages);
                Process p = new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("npm-install.log").toFile())
                        .start();
                if (!p.waitFor(5, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                    unavailable("npm install did not finish within 5 minutes");
                }
                if (p.exitValue() != 0)
                    unavailable("npm install failed (exit " + p.exitValue() + "): "
                            + Files.readString(dir.resolve("npm-install.log")).strip());
                Files.writeString(marker, wanted);
            }
        } catch (IOException e) {
            unavailable("cannot install the npm packages: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unavailable("interrupted installing the npm packages");
        }
        INSTALLED.put(dir, dir);
        return dir;
    }

    /** The entry point of an installed package's binary, e.g. {@code dist/index.js} of server-everything. */
    public static Path script(String packageName, String relativePath) {
        return script(require(), packageName, relativePath);
    }

    /** {@link #script(String, String)} of the packages in {@code installed} (what {@link #require(Path)} returned). */
    public static Path script(Path installed, String packageName, String relativePath) {
        return installed.resolve("node_modules").resolve(packageName).resolve(relativePath);
    }

    /**
     * A Node script shipped with the testkit (under {@code mcp/} on the class path), copied next to the installed
     * packages so that its imports of them resolve; e.g. {@code changing-server.mjs}, a stdio MCP server on the official
     * TypeScript SDK whose tools change on request.
     */
    public static Path testScript(String name) {
        return copyScript(require(), "/mcp/" + name);
    }

    /**
     * A Node script from the class path (e.g. {@code /openai/client.mjs} of a test module) copied into {@code installed}
     * (what {@link #require(Path, List)} returned), so that its imports of the packages there resolve.
     */
    public static Path copyScript(Path installed, String resource) {
        Path target = installed.resolve(resource.substring(resource.lastIndexOf('/') + 1));
        try (java.io.InputStream in = NpmPackages.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalArgumentException("no test script " + resource + " on the class path");
            Files.copy(in, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return target;
    }

    /** The absolute path of {@code node}. */
    public static String node() {
        String node = which("node");
        if (node == null) unavailable("node is not on the PATH");
        return node;
    }

    private static String which(String program) {
        String path = System.getenv("PATH");
        if (path == null) return null;
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, program);
            if (Files.isExecutable(candidate)) return candidate.toString();
        }
        return null;
    }

    private static void unavailable(String why) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) fail(why + "; CI=true requires the npm test peers");
        Assumptions.abort(why + "; skipping this test (set CI=true to make it a failure)");
    }
}
