package dev.baton.mcp.client;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.baton.core.agent.AttachedResource;
import dev.baton.core.auth.Principal;
import dev.baton.core.context.ResourceContent;
import dev.baton.core.context.ResourceReader;
import dev.baton.core.tool.ConnectRequiredException;
import dev.baton.core.tool.ToolException;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.ResourceSettings;
import dev.baton.mcp.config.ServerState;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resources of connected MCP servers: listed for a caller ({@code GET /v1/mcp/resources}) and read into the
 * context of the agents that attach them, only from servers the caller may use and as the caller.
 *
 * <ul>
 *   <li>a server of shared data ({@code state: shared}): for callers with its permissions and one of its
 *       {@code sharedWith} roles, over its one connection;
 *   <li>a server with users' own accounts ({@code auth: oauth}): for callers with its permissions, over their own
 *       session with their own token (a caller who has not connected reads nothing there);
 *   <li>any other server keeps each user's data apart by an identity or a process Baton gives only to tool calls, so
 *       its resources are not read: it is treated as unusable.
 * </ul>
 *
 * <p>A text is cut to {@link ResourceSettings#maxBytes()} bytes; a blob is only named. A read is kept for the server's
 * {@code ttlMs} (2026-07-28), at most {@link ResourceSettings#cacheTtl()}, or for that when the server does not say:
 * for everybody who may use the server, unless the server called it private ({@code cacheScope: private}) or the read
 * went over a user's own account, which are kept per user. Failures are not kept; a server that is down is known
 * without a request.
 */
public final class McpResources implements ResourceReader {
    private static final Logger log = LoggerFactory.getLogger(McpResources.class);
    /** A listing asks for at most this many pages of a server. */
    private static final int MAX_PAGES = 10;
    /** The cache's bound, in characters kept: a megabyte of text costs about as much as a megabyte. */
    private static final long CACHE_WEIGHT = 64L * 1024 * 1024;

    /** One resource of one server, as listed. */
    public record Resource(
            String server, String uri, String name, String title, String description, String mimeType, Long size) {}

    /** A read kept: by server and URI, and by the user when it is theirs only (tenant and user null otherwise). */
    private record Key(String server, String uri, String tenantId, String userId) {}

    private record Kept(List<ResourceContent> contents, Duration ttl) {
        int weight() {
            long chars = 0;
            for (ResourceContent c : contents)
                chars += c instanceof ResourceContent.Text t ? t.text().length() : 64;
            return (int) Math.min(Integer.MAX_VALUE, chars + 64);
        }
    }

    private final List<McpConnection> connections;
    private final Map<String, AccountSessions> accountSessions;
    private final ResourceSettings settings;
    private final Cache<Key, Kept> cache;

    McpResources(
            List<McpConnection> connections, Map<String, AccountSessions> accountSessions, ResourceSettings settings) {
        this.connections = List.copyOf(connections);
        this.accountSessions = Map.copyOf(accountSessions);
        this.settings = settings;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(CACHE_WEIGHT)
                .weigher((Key k, Kept v) -> v.weight())
                .expireAfter(new Expiry<Key, Kept>() {
                    @Override
                    public long expireAfterCreate(Key key, Kept value, long currentTime) {
                        return value.ttl().toNanos();
                    }

                    @Override
                    public long expireAfterUpdate(Key key, Kept value, long currentTime, long currentDuration) {
                        return value.ttl().toNanos();
                    }

                    @Override
                    public long expireAfterRead(Key key, Kept value, long currentTime, long currentDuration) {
                        return currentDuration;
                    }
                })
                .build();
    }

    /**
     * The resources of every server the caller may use, by server in configuration order; a server that is down or
     * fails the listing is left out (and logged), not an error for the others.
     */
    public List<Resource> list(Principal caller) {
        List<Resource> out = new ArrayList<>();
        for (McpConnection c : connections) {
            if (!usableBy(c.settings(), caller)) continue;
            try {
                Optional<List<McpSchema.Resource>> listed =
                        onServer(c, caller, "list its resources", s -> s.listResources(timeout(c), MAX_PAGES));
                listed.ifPresent(resources -> resources.forEach(r -> out.add(new Resource(
                        c.name(), r.uri(), r.name(), r.title(), r.description(), r.mimeType(), r.size()))));
            } catch (ConnectRequiredException e) {
                // not connected: that user has no resources there
            } catch (ToolException | McpUnavailableException e) {
                log.warn("MCP server {}: listing its resources failed: {}", c.name(), e.getMessage());
            }
        }
        return out;
    }

    /** Reads each resource as {@code caller}; what cannot be read is {@link ResourceContent.Unreadable}, never thrown. */
    @Override
    public List<ResourceContent> read(Principal caller, List<AttachedResource> resources) {
        List<ResourceContent> out = new ArrayList<>();
        for (AttachedResource r : resources) out.addAll(read(caller, r));
        return out;
    }

    private List<ResourceContent> read(Principal caller, AttachedResource resource) {
        Optional<McpConnection> found = connections.stream()
                .filter(c -> c.name().equals(resource.server()))
                .findFirst();
        if (found.isEmpty() || !usableBy(found.get().settings(), caller))
            return unreadable(resource, "no MCP server " + resource.server() + " this user may use");
        McpConnection c = found.get();
        boolean ownAccount = c.settings().userAccounts();
        Key shared = new Key(c.name(), resource.uri(), null, null);
        Key own = new Key(c.name(), resource.uri(), caller.tenantId(), caller.userId());
        Kept kept = ownAccount ? cache.getIfPresent(own) : cache.getIfPresent(shared);
        if (kept == null && !ownAccount) kept = cache.getIfPresent(own);
        if (kept != null) return kept.contents();
        ResourceRead read;
        try {
            Optional<ResourceRead> answered =
                    onServer(c, caller, "read a resource", s -> s.readResource(resource.uri(), timeout(c)));
            if (answered.isEmpty()) return unreadable(resource, "MCP server " + c.name() + " is not connected");
            read = answered.get();
        } catch (ConnectRequiredException e) {
            return unreadable(resource, "the user has not connected their account on MCP server " + c.name());
        } catch (ToolException e) {
            return unreadable(resource, "MCP server " + c.name() + " refused: " + e.getMessage());
        } catch (McpUnavailableException e) {
            return unreadable(resource, e.getMessage());
        } catch (CancellationException e) {
            throw e;
        } catch (RuntimeException e) {
            return unreadable(resource, "reading failed: " + CallFailure.of(e).message());
        }
        List<ResourceContent> contents = contents(c.name(), resource.uri(), read);
        Duration ttl = ttl(read);
        if (!ttl.isZero()) cache.put(ownAccount || read.privateScope() ? own : shared, new Kept(contents, ttl));
        return contents;
    }

    /**
     * One request to a server as {@code caller}: over the server's connection, or over the caller's own session for a
     * server with users' accounts.
     *
     * @return empty when the server is not connected
     */
    private <T> Optional<T> onServer(McpConnection c, Principal caller, String what, Function<ToolSession, T> request) {
        AccountSessions own = accountSessions.get(c.name());
        if (own != null) return Optional.ofNullable(own.request(caller.tenantId(), caller.userId(), what, request));
        if (!c.status().up()) return Optional.empty();
        return Optional.ofNullable(c.request(what, request));
    }

    private List<ResourceContent> contents(String server, String uri, ResourceRead read) {
        if (read.contents().isEmpty()) return List.of(new ResourceContent.Text(server, uri, null, "", 0));
        List<ResourceContent> out = new ArrayList<>();
        for (McpSchema.ResourceContents c : read.contents()) {
            String at = c.uri() == null || c.uri().isBlank() ? uri : c.uri();
            switch (c) {
                case McpSchema.TextResourceContents t -> out.add(bounded(server, at, t.mimeType(), t.text()));
                case McpSchema.BlobResourceContents b ->
                    out.add(new ResourceContent.Binary(server, at, b.mimeType(), decodedSize(b.blob())));
                default -> out.add(new ResourceContent.Binary(server, at, c.mimeType(), 0));
            }
        }
        return out;
    }

    /** The text cut to the configured bytes, at a character boundary. */
    private ResourceContent.Text bounded(String server, String uri, String mimeType, String text) {
        String whole = text == null ? "" : text;
        long bytes = utf8Length(whole);
        if (bytes <= settings.maxBytes()) return new ResourceContent.Text(server, uri, mimeType, whole, bytes);
        int end = 0;
        long used = 0;
        while (end < whole.length()) {
            int cp = whole.codePointAt(end);
            int size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (used + size > settings.maxBytes()) break;
            used += size;
            end += Character.charCount(cp);
        }
        return new ResourceContent.Text(server, uri, mimeType, whole.substring(0, end), bytes);
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            i += Character.charCount(cp);
        }
        return n;
    }

    /** The blob's size without decoding it: base64 is 4 characters per 3 bytes, less the padding. */
    private static long decodedSize(String blob) {
        if (blob == null || blob.isEmpty()) return 0;
        int padding = blob.endsWith("==") ? 2 : blob.endsWith("=") ? 1 : 0;
        return (long) blob.length() / 4 * 3 - padding;
    }

    private Duration ttl(ResourceRead read) {
        Duration most = settings.cacheTtl();
        if (read.ttlMs() == null || read.ttlMs() < 0) return most;
        Duration asked = Duration.ofMillis(read.ttlMs());
        return asked.compareTo(most) < 0 ? asked : most;
    }

    private static Duration timeout(McpConnection c) {
        return c.settings().timeout();
    }

    private static List<ResourceContent> unreadable(AttachedResource r, String reason) {
        return List.of(new ResourceContent.Unreadable(r.server(), r.uri(), reason));
    }

    /** The rule of the server's tools, for the servers whose resources can be read as the caller (see above). */
    static boolean usableBy(McpServerSettings settings, Principal caller) {
        if (!caller.hasAllPermissions(settings.permissions())) return false;
        if (settings.state() instanceof ServerState.Shared)
            return caller.roles().stream().anyMatch(settings.sharedWith()::contains);
        return settings.userAccounts();
    }
}
