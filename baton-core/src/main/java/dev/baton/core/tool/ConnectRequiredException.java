package dev.baton.core.tool;

import java.util.Objects;

/**
 * A tool call that cannot run because the caller has not connected their own account on the tool's server (or
 * revoked it): the model is told to ask the user to connect, and the turn's events carry a
 * {@link dev.baton.core.turn.TurnEvent.ConnectRequired} with where to do it.
 */
public final class ConnectRequiredException extends ToolException {
    public static final String CODE = "connect_required";

    private final ToolError.AccountConnect connect;

    public ConnectRequiredException(ToolError.AccountConnect connect) {
        super(
                CODE,
                "The user has not connected their account on "
                        + Objects.requireNonNull(connect, "connect").server()
                        + ", so this tool cannot run for them yet. Tell the user to connect their "
                        + connect.server() + " account (the chat shows a Connect button; the link is "
                        + connect.connectUrl() + ") and then ask again. Do not retry before they have.");
        this.connect = connect;
    }

    public ToolError.AccountConnect connect() {
        return connect;
    }
}
