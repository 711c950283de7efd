package dev.baton.mcp.client;

import dev.baton.core.auth.Principal;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.session.Sessions;
import java.util.List;
import java.util.Objects;

/**
 * The operator's side of the external MCP servers, for callers with {@value #ADMIN_MCP}: each server's state, the
 * pinned tools, and accepting a reviewed change of a pinned tool so it is offered again. Who may do it, and how an
 * acceptance is refused, is decided here; a front door only translates.
 */
public final class McpAdministration {
    /** See and manage the MCP servers and their tool pins. */
    public static final String ADMIN_MCP = "admin:mcp";

    private final McpClients mcp;

    public McpAdministration(McpClients mcp) {
        this.mcp = Objects.requireNonNull(mcp, "mcp");
    }

    /**
     * The caller as an operator of the MCP servers.
     *
     * @throws RefusalException {@link Refusal.Forbidden} without {@value #ADMIN_MCP}
     */
    public Operator operator(Principal caller) {
        Sessions.require(caller, ADMIN_MCP);
        return new Operator();
    }

    /** What a caller with {@value #ADMIN_MCP} may do. */
    public final class Operator {
        private Operator() {}

        /** Each server's state, transport, pid, restarts and last error. */
        public List<ServerStatus> servers() {
            return mcp.status();
        }

        /** Every pinned tool, with the changed fingerprint of one that is disabled. */
        public List<PinnedTool> pins() {
            return mcp.pins();
        }

        /**
         * Accepts the change recorded for {@code tool} of {@code server}, if it is still the one the operator reviewed,
         * and offers the tool again.
         *
         * @param hash the changed fingerprint the operator reviewed ({@link PinnedTool#changedHash()}); null when the
         *     request named none
         * @return the tool's pin now
         * @throws RefusalException {@link Refusal.InvalidInput} without a hash; {@link Refusal.NotFound} for no such
         *     pinned tool; {@link Refusal.InvalidValue} when the hash is not the change recorded now (none is, or the
         *     tool changed again since it was reviewed)
         */
        public String accept(String server, String tool, String hash) {
            if (hash == null || hash.isBlank())
                throw RefusalException.invalidInput("field 'hash' is required: the changedHash you reviewed");
            return switch (mcp.accept(server, tool, hash)) {
                case PinAcceptance.Accepted accepted -> accepted.hash();
                case PinAcceptance.Unknown unknown -> throw RefusalException.notFound("pinned MCP tool");
                case PinAcceptance.Mismatch mismatch ->
                    throw new RefusalException(new Refusal.InvalidValue(
                            mismatch.recorded() == null
                                    ? "this tool has no change to accept: it matches its pin"
                                    : "the hash is not the change recorded now (" + mismatch.recorded()
                                            + "); review the tool again"));
            };
        }
    }
}
