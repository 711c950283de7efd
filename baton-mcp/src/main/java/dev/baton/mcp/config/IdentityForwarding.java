package dev.baton.mcp.config;

/**
 * Whether and how the verified caller reaches an MCP server with each {@code tools/call}. Nothing is forwarded
 * unless configured; the user's token never is.
 *
 * @param meta put {@value #USER_META_KEY} and {@value #TENANT_META_KEY} in the request's {@code _meta}
 * @param userHeader for HTTP servers, a header carrying the user id (null for none)
 * @param tenantHeader for HTTP servers, a header carrying the tenant id (null for none)
 */
public record IdentityForwarding(boolean meta, String userHeader, String tenantHeader) {
    public static final String USER_META_KEY = "dev.baton/userId";
    public static final String TENANT_META_KEY = "dev.baton/tenantId";
    public static final IdentityForwarding NONE = new IdentityForwarding(false, null, null);

    public IdentityForwarding {
        userHeader = blankToNull(userHeader);
        tenantHeader = blankToNull(tenantHeader);
    }

    public boolean headers() {
        return userHeader != null || tenantHeader != null;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
