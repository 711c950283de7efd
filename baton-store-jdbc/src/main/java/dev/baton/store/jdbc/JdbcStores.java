package dev.baton.store.jdbc;

import dev.baton.runtime.BatonBuilder;
import dev.baton.store.jdbc.experiment.JdbcExperimentStore;
import dev.baton.store.jdbc.experiment.JdbcFlagStore;
import dev.baton.store.jdbc.usage.JdbcUsageStore;
import java.util.Objects;

/**
 * Every store port of the runtime on one {@link Database}, as one bundle: conversations, session lifecycle,
 * conversation search, idempotency keys, paused turns (approvals), running turns' leases, usage, experiments and feature flags, and the
 * audit store hook modules write to.
 *
 * <pre>{@code
 * Baton baton = JdbcStores.of(db).applyTo(Baton.builder())
 *         .models(models).tokenCounter(tokens).agents(agents)
 *         .build();
 * }</pre>
 *
 * The stores keep no state of their own: closing the runtime leaves the database open for its owner to close. MCP
 * tool pins ({@code mcp.JdbcToolPins}) are not in the bundle: they are given to baton-mcp's {@code McpClients}, not
 * to a runtime.
 */
public final class JdbcStores {
    private final JdbcConversationStore conversations;
    private final JdbcSessionLifecycle sessions;
    private final JdbcConversationSearch search;
    private final JdbcIdempotencyStore idempotency;
    private final JdbcApprovalStore approvals;
    private final JdbcTurnLeaseStore turnLeases;
    private final JdbcUsageStore usage;
    private final JdbcAuditStore audit;
    private final JdbcExperimentStore experiments;
    private final JdbcFlagStore flags;

    private JdbcStores(Database db) {
        this.conversations = new JdbcConversationStore(db);
        this.sessions = new JdbcSessionLifecycle(db);
        this.search = new JdbcConversationSearch(db);
        this.idempotency = new JdbcIdempotencyStore(db);
        this.approvals = new JdbcApprovalStore(db);
        this.turnLeases = new JdbcTurnLeaseStore(db);
        this.usage = new JdbcUsageStore(db);
        this.audit = new JdbcAuditStore(db);
        this.experiments = new JdbcExperimentStore(db);
        this.flags = new JdbcFlagStore(db);
    }

    /** The stores on {@code db}, which stays its opener's to close. */
    public static JdbcStores of(Database db) {
        return new JdbcStores(Objects.requireNonNull(db, "db"));
    }

    /**
     * Gives the builder every store of the bundle but the audit store (it comes with hook modules:
     * {@code builder.modules(modules, stores.audit())}).
     *
     * @return the same builder, to go on with its other settings
     */
    public BatonBuilder applyTo(BatonBuilder builder) {
        return builder.conversationStore(conversations)
                .sessionStore(sessions)
                .conversationSearch(search)
                .idempotencyStore(idempotency)
                .approvalStore(approvals)
                .turnLeaseStore(turnLeases)
                .usageStore(usage)
                .experimentStore(experiments)
                .flagStore(flags);
    }

    /** Sessions, messages, tool calls, usage and audit rows of every turn. */
    public JdbcConversationStore conversations() {
        return conversations;
    }

    /** Sessions' terms and ends (message limit, duration, inactivity sweep). */
    public JdbcSessionLifecycle sessions() {
        return sessions;
    }

    /** Full-text search over a user's earlier conversations. */
    public JdbcConversationSearch search() {
        return search;
    }

    /** Idempotency keys of retried sends. */
    public JdbcIdempotencyStore idempotency() {
        return idempotency;
    }

    /** Turns paused for the user's approval of tool calls, so any instance can go on with one. */
    public JdbcApprovalStore approvals() {
        return approvals;
    }

    /** Leases and checkpoints of running turns, so a turn whose instance died goes on on another. */
    public JdbcTurnLeaseStore turnLeases() {
        return turnLeases;
    }

    /** Tokens and cost, for budgets and reports. */
    public JdbcUsageStore usage() {
        return usage;
    }

    /** Hook modules' audit records and extractions. */
    public JdbcAuditStore audit() {
        return audit;
    }

    /** Experiments, their sessions' arms and turns, and the operators' audit trail. */
    public JdbcExperimentStore experiments() {
        return experiments;
    }

    /** Feature flag values set at runtime. */
    public JdbcFlagStore flags() {
        return flags;
    }
}
