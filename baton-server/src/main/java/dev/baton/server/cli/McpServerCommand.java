package dev.baton.server.cli;

import dev.baton.core.tool.ToolSource;
import dev.baton.mcp.server.StdioToolServer;
import dev.baton.notes.NotesModule;
import dev.baton.notes.domain.NoteService;
import dev.baton.server.config.BatonConfig;
import dev.baton.server.config.ConfigLoader;
import dev.baton.store.jdbc.Database;
import dev.baton.tasks.TaskModule;
import dev.baton.tasks.domain.TaskService;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code baton mcp-server --domain tasks}: a built-in domain's tools as a standalone MCP server on stdin and stdout,
 * over the configured database (baton.yaml's {@code database.url} or {@code BATON_DB_URL}). Started by an MCP client —
 * another Baton among them, with {@code identity: {meta: true}} so that each call names its user.
 */
@Command(
        name = "mcp-server",
        mixinStandardHelpOptions = true,
        description = "Serve a built-in domain's tools as an MCP server over stdio (logs go to stderr).")
final class McpServerCommand implements Callable<Integer> {

    /** The domains that can be served, with the permissions a named caller holds there. */
    enum Domain {
        tasks(Set.of(TaskService.READ, TaskService.WRITE)),
        notes(Set.of(NoteService.READ, NoteService.WRITE));

        final Set<String> permissions;

        Domain(Set<String> permissions) {
            this.permissions = permissions;
        }
    }

    @Option(names = "--domain", required = true, description = "The domain to serve: ${COMPLETION-CANDIDATES}.")
    Domain domain;

    @Option(names = "--config", description = "Path to baton.yaml (default: ./baton.yaml or $BATON_CONFIG).")
    Path config;

    @Override
    public Integer call() throws InterruptedException {
        BatonConfig cfg = ConfigLoader.load(config, System.getenv());
        Clock clock = Clock.systemUTC();
        try (Database db = Database.open(cfg.databaseUrl(), List.of(TaskModule.MIGRATIONS, NotesModule.MIGRATIONS))) {
            ToolSource tools = switch (domain) {
                case tasks -> TaskModule.create(db, clock).toolSource();
                case notes -> NotesModule.create(db, clock).toolSource();
            };
            new StdioToolServer(tools, domain.permissions, clock).serve(System.in, System.out);
        }
        return 0;
    }
}
