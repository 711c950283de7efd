package dev.baton.server.cli;

/**
 * The exit codes of the {@code baton} command: one for each kind of failure a user can fix, so that scripts can tell
 * them apart.
 */
final class ExitCodes {
    static final int OK = 0;
    /** Something unexpected: a bug, or a failure Baton does not know how to explain (--verbose shows the trace). */
    static final int FAILED = 1;
    /** The command line is wrong (picocli's own code for it). */
    static final int USAGE = 2;
    /** baton.yaml, an agent file or the environment configure something that cannot work. */
    static final int CONFIG = 3;
    /** The server (chat) or the database (serve) cannot be reached. */
    static final int UNREACHABLE = 4;
    /** The server refused the token. */
    static final int UNAUTHORIZED = 5;
    /** The port to listen on is taken. */
    static final int PORT_IN_USE = 6;
    /** {@code baton eval}: the suite ran, and its pass rate is below the threshold. */
    static final int BELOW_THRESHOLD = 7;
    /** The server refused the request itself (403 a permission it lacks, 404, 409…); its message says why. */
    static final int REFUSED = 8;

    private ExitCodes() {}
}
