package dev.baton.server.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code baton} command line. */
@Command(
        name = "baton",
        mixinStandardHelpOptions = true,
        version = "baton 0.1.0",
        description = "Baton: an AI agent orchestrator and chat runtime for the JVM.",
        subcommands = {
            ServeCommand.class,
            TokenCommand.class,
            ChatCommand.class,
            SimulatorCommand.class,
            McpServerCommand.class
        })
public final class BatonCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        // before any logger exists: an MCP server's stdout is the protocol, so its logs go to stderr
        if (args.length > 0 && args[0].equals("mcp-server")) System.setProperty("baton.log.target", "System.err");
        // serve and simulator block until the process is stopped; everything else exits with its code
        System.exit(new CommandLine(new BatonCli()).execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
