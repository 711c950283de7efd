package dev.baton.server.cli;

/** A failure the user can do something about: one line saying what happened and what to do, and its exit code. */
final class CliFailure extends RuntimeException {
    private final int exitCode;

    CliFailure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    CliFailure(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
