package dev.baton.server.cli;

import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.app.AppSettings;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.core.tool.ToolSource;
import dev.baton.domain.Domain;
import dev.baton.domain.DomainContext;
import dev.baton.domain.Domains;
import dev.baton.domain.RunningDomain;
import dev.baton.mcp.server.StdioToolServer;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.store.jdbc.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code baton mcp-server --domain tasks}: a domain's tools as a standalone MCP server on stdin and stdout, over the
 * configured database (baton.yaml's {@code database.url} or {@code BATON_DB_URL}). Any domain on the class path can be
 * served — the built-in ones and a domain in a jar of one's own. Started by an MCP client — another Baton among them,
 * with {@code identity: {meta: true}} so that each call names its user.
 */
@Command(
        name = "mcp-server",
        mixinStandardHelpOptions = true,
        description = "Serve a domain's tools as an MCP server over stdio (logs go to stderr).")
final class McpServerCommand implements Callable<Integer> {

    @Option(
            names = "--domain",
            required = true,
            description = "The domain to serve, one of those on the class path (tasks, notes, learning, ...).")
    String domain;

    @Option(names = "--config", description = "Path to baton.yaml (default: ./baton.yaml or $BATON_CONFIG).")
    Path config;

    @Override
    public Integer call() throws InterruptedException {
        Domains domains = Domains.onClassPath();
        Domain served = domains.find(domain)
                .filter(d -> !d.userPermissions().isEmpty())
                .orElseThrow(() -> new CliFailure(
                        ExitCodes.USAGE,
                        "no domain '" + domain + "' to serve over MCP (domains: "
                                + String.join(
                                        ", ",
                                        domains.all().stream()
                                                .filter(d ->
                                                        !d.userPermissions().isEmpty())
                                                .map(Domain::name)
                                                .toList())
                                + ")"));
        Map<String, String> env = System.getenv();
        ConfigFile file = ConfigLoader.read(config, env);
        BatonConfig cfg = ConfigLoader.from(file, env);
        Object settings = readSettings(served, cfg, file);
        Clock clock = Clock.systemUTC();
        try (Database db = Database.open(cfg.databaseUrl(), served.migrations());
                RunningDomain running = served.start(DomainContext.standalone(db, clock, settings))) {
            List<ToolSource> tools = running.toolSources();
            new StdioToolServer(served.name(), tools, served.userPermissions(), clock).serve(System.in, System.out);
        }
        return 0;
    }

    /** The domain's own section of baton.yaml, read and checked as {@code baton serve} reads it. */
    private static Object readSettings(Domain domain, BatonConfig config, ConfigFile file) {
        try {
            return domain.readSettings(
                    domain.configSection() == null
                            ? MissingNode.getInstance()
                            : config.section(domain.configSection()));
        } catch (RuntimeException e) {
            throw AppSettings.locate(e, file);
        }
    }
}
