package dev.baton.server.cli;

import java.util.Arrays;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The {@code baton} command line. */
@Command(
        name = "baton",
        mixinStandardHelpOptions = true,
        version = "baton 0.1.0",
        description = "Baton: an AI agent orchestrator and chat runtime for the JVM.",
        subcommands = {
            ServeCommand.class,
            ChatCommand.class,
            TokenCommand.class,
            ConfigCommand.class,
            SimulatorCommand.class,
            McpServerCommand.class,
            EvalCommand.class,
            SessionsCommand.class,
            ApprovalsCommand.class,
            UsageCommand.class,
            AuditCommand.class,
            ExperimentsCommand.class,
            McpCommand.class,
            CommandLine.HelpCommand.class
        },
        footer = {
            "",
            // each line within picocli's 80 columns, so none is broken mid-word
            "From a source checkout, ./baton builds the server when its sources changed,",
            "and has two commands of its own: ./baton test and ./baton build.",
            "Exit codes: 0 ok, 1 unexpected failure, 2 wrong command line,",
            "3 configuration error, 4 server or database unreachable, 5 token refused,",
            "6 port in use, 7 eval below its threshold, 8 request refused by the server."
        })
public final class BatonCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--verbose",
            scope = ScopeType.INHERIT,
            description = "On failure, show the stack trace too (for bug reports).")
    boolean verbose;

    public static void main(String[] args) {
        // before any logger exists: an MCP server's stdout is the protocol, so its logs go to stderr
        if (args.length > 0 && args[0].equals("mcp-server")) System.setProperty("baton.log.target", "System.err");
        // serve and simulator block until the process is stopped; everything else exits with its code
        System.exit(execute(args));
    }

    /** Runs the command line and returns its exit code. */
    static int execute(String... args) {
        // read before parsing: a failure while parsing or starting is reported before any option object is set
        boolean verbose = Arrays.asList(args).contains("--verbose");
        return new CommandLine(new BatonCli())
                .setExecutionExceptionHandler(new FailureHandler(verbose))
                .execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
