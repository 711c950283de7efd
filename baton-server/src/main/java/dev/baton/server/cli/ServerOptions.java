package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * What the operator commands share: the server, the token, and {@code --json} to print the server's answer as it is.
 * Without a token they act as an administrator minted with a local server's development secret.
 */
final class ServerOptions {
    @Option(
            names = "--url",
            description = "The server (default: $BATON_URL, else http://localhost:$BATON_PORT, port 8080).")
    String url;

    @Option(
            names = "--token",
            description = "Bearer token (default: $BATON_TOKEN, else an admin token signed with the development"
                    + " secret of a server started in this folder).")
    String token;

    @Option(names = "--json", description = "Print the server's JSON answer as it is.")
    boolean json;

    /** A client of the server, acting as {@code user} with {@code role} when no token is given. */
    ServerClient client(String user, String role) {
        Map<String, String> env = System.getenv();
        // the note about a minted token goes to stderr: stdout may be JSON for a script
        return new ServerClient(
                ServerClient.urlFrom(url, env), CallerToken.resolve(token, env, System.err, user, role));
    }

    ServerClient admin() {
        return client("admin", "admin");
    }

    /** With --json the answer as it is; else {@code text} prints it for people. */
    void print(PrintStream out, JsonNode answer, Runnable text) {
        if (json) out.println(answer.toPrettyString());
        else text.run();
    }
}
