package dev.baton.mcp.client;

import dev.baton.core.tool.ToolContext;
import dev.baton.mcp.config.IdentityForwarding;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code _meta} of a {@code tools/call}: the call's idempotency key whenever a turn makes the call (a server that
 * honours it runs a call retried after a crash once), and the verified caller where the server is configured to get
 * it.
 */
final class CallMeta {
    /** The key under which {@link ToolContext#idempotencyKey} travels; the same on every attempt of the call. */
    static final String IDEMPOTENCY_KEY = "dev.baton/idempotencyKey";

    private CallMeta() {}

    /** The {@code _meta} to send; null when there is nothing to send. */
    static Map<String, Object> of(boolean identity, ToolContext context) {
        Map<String, Object> meta = new LinkedHashMap<>();
        if (context.idempotencyKey() != null) meta.put(IDEMPOTENCY_KEY, context.idempotencyKey());
        if (identity) {
            meta.put(IdentityForwarding.USER_META_KEY, context.principal().userId());
            meta.put(IdentityForwarding.TENANT_META_KEY, context.principal().tenantId());
        }
        return meta.isEmpty() ? null : Collections.unmodifiableMap(meta);
    }
}
