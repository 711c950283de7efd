package dev.baton.server.cli;

import dev.baton.app.DatabaseUnavailableException;
import dev.baton.core.config.ConfigProblem;
import dev.baton.runtime.config.ConfigException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.ConnectException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * How a command that failed ends: one line on stderr that says what happened and what to do, and an exit code for
 * the kind of failure (see {@link ExitCodes}). The stack trace only with {@code --verbose}: for expected failures it
 * tells the user nothing they can act on.
 */
final class FailureHandler implements IExecutionExceptionHandler {

    private final boolean verbose;

    FailureHandler(boolean verbose) {
        this.verbose = verbose;
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        Explained x = explain(e);
        err.println(cmd.getCommandSpec().qualifiedName() + ": " + x.message());
        if (verbose) {
            e.printStackTrace(err);
        } else if (x.exitCode() == ExitCodes.FAILED) {
            err.println("(run it again with --verbose to see the stack trace)");
        }
        err.flush();
        return x.exitCode();
    }

    record Explained(int exitCode, String message) {}

    static Explained explain(Throwable e) {
        if (e instanceof CliFailure f) return new Explained(f.exitCode(), f.getMessage());
        if (e instanceof ConfigException || e instanceof ConfigProblem)
            return new Explained(ExitCodes.CONFIG, e.getMessage());
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException)
                return new Explained(
                        ExitCodes.PORT_IN_USE,
                        "the port is already in use (" + t.getMessage() + "): stop what listens there, or pick "
                                + "another with --port N or BATON_PORT (0 picks a free one)");
            if (t instanceof DatabaseUnavailableException) return new Explained(ExitCodes.UNREACHABLE, t.getMessage());
            if (t instanceof ConnectException)
                return new Explained(ExitCodes.UNREACHABLE, "cannot connect: " + firstLine(t.getMessage()));
        }
        return new Explained(ExitCodes.FAILED, "unexpected failure: " + firstLine(String.valueOf(e)));
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("").strip();
    }
}
