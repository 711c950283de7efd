package dev.baton.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AttachedResource;
import dev.baton.core.auth.Principal;
import dev.baton.core.context.ResourceContent;
import dev.baton.mcp.config.McpSettings;
import dev.baton.mcp.pin.InMemoryToolPins;
import dev.baton.mcp.support.ModernServer;
import dev.baton.mcp.support.NodeServer;
import dev.baton.runtime.config.Yaml;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resources of connected servers, from a 2025 server (server-everything) and a 2026-07-28 one (the TypeScript SDK v2):
 * listed and read only for callers who may use the server, texts cut to the configured bytes, blobs only named, a
 * read kept so the next turn sends no request, and a server that is down leaving its resources out instead of failing.
 */
class McpResourcesIT {
    private static final AttachedResource HANDBOOK = new AttachedResource("modern", "file:///handbook.md");
    private static final AttachedResource LONG = new AttachedResource("modern", "file:///long.txt");
    private static final AttachedResource LOGO = new AttachedResource("modern", "file:///logo.png");

    @TempDir
    Path dir;

    final List<AutoCloseable> opened = new ArrayList<>();
    McpClients clients;

    final Principal tester = user("ann", Set.of("tester"), "mcp:everything", "mcp:modern");
    final Principal noPermission = user("bob", Set.of("tester"));
    final Principal otherRole = user("cid", Set.of("student"), "mcp:everything", "mcp:modern");

    @AfterEach
    void stop() throws Exception {
        if (clients != null) clients.close();
        for (AutoCloseable c : opened.reversed()) c.close();
    }

    @Test
    void resources_of_both_revisions_are_listed_and_read_bounded_for_who_may_use_the_server() {
        NodeServer old = opened(NodeServer.everything("streamableHttp", dir));
        ModernServer modern = opened(ModernServer.start(dir));
        McpResources resources = connect(Map.of("everything", old.url("/mcp"), "modern", modern.url("/mcp")));

        List<McpResources.Resource> listed = resources.list(tester);
        assertThat(listed)
                .extracting(r -> r.server() + " " + r.uri())
                .contains("modern file:///handbook.md", "modern file:///long.txt", "modern file:///logo.png");
        McpResources.Resource fromOld = listed.stream()
                .filter(r -> r.server().equals("everything"))
                .filter(r -> r.mimeType() != null && r.mimeType().startsWith("text/"))
                .findFirst()
                .orElseThrow();

        List<ResourceContent> read = resources.read(
                tester, List.of(HANDBOOK, LONG, LOGO, new AttachedResource("everything", fromOld.uri())));
        assertThat(read).hasSize(4);
        ResourceContent.Text handbook = (ResourceContent.Text) read.get(0);
        assertThat(handbook.text()).isEqualTo("# Handbook\nThe secret word is PERIWINKLE.");
        assertThat(handbook.mimeType()).isEqualTo("text/markdown");
        assertThat(handbook.truncated()).isFalse();
        // 3,000 two-byte characters and an ending: cut to the configured 1,000 bytes, at a character boundary
        ResourceContent.Text cut = (ResourceContent.Text) read.get(1);
        assertThat(cut.truncated()).isTrue();
        assertThat(cut.originalBytes()).isEqualTo(6007);
        assertThat(cut.text()).isEqualTo("é".repeat(500));
        assertThat(read.get(2)).isEqualTo(new ResourceContent.Binary("modern", "file:///logo.png", "image/png", 300));
        ResourceContent.Text old2025 = (ResourceContent.Text) read.get(3);
        assertThat(old2025.server()).isEqualTo("everything");
        assertThat(old2025.text()).isNotBlank();

        // without the permission, or without a role the shared data is for, there is nothing to list or read
        assertThat(resources.list(noPermission)).isEmpty();
        assertThat(resources.list(otherRole)).isEmpty();
        assertThat(resources.read(noPermission, List.of(HANDBOOK)))
                .containsExactly(new ResourceContent.Unreadable(
                        "modern", "file:///handbook.md", "no MCP server modern this user may use"));
        assertThat(resources.read(otherRole, List.of(HANDBOOK)))
                .singleElement()
                .isInstanceOf(ResourceContent.Unreadable.class);
        // a URI the server does not have is its refusal, left out
        assertThat(resources.read(tester, List.of(new AttachedResource("modern", "file:///nope.md"))))
                .singleElement()
                .isInstanceOf(ResourceContent.Unreadable.class);
    }

    @Test
    void a_read_is_kept_for_the_next_turns_and_a_server_that_is_down_leaves_its_resources_out() {
        ModernServer modern = opened(ModernServer.start(dir));
        McpResources resources = connect(Map.of("modern", modern.url("/mcp")));

        for (int turn = 0; turn < 3; turn++)
            assertThat(((ResourceContent.Text)
                                    resources.read(tester, List.of(HANDBOOK)).getFirst())
                            .text())
                    .contains("PERIWINKLE");
        // the handbook may be kept a minute (its ttlMs); the long text says 0, so it is read again every time
        resources.read(tester, List.of(LONG));
        resources.read(tester, List.of(LONG));
        assertThat(reads(modern.seen(), "file:///handbook.md")).isEqualTo(1);
        assertThat(reads(modern.seen(), "file:///long.txt")).isEqualTo(2);

        modern.close();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !clients.status().getFirst().up());
        List<ResourceContent> whileDown = resources.read(tester, List.of(LOGO, HANDBOOK));
        assertThat(whileDown.getFirst()).isInstanceOf(ResourceContent.Unreadable.class);
        assertThat(((ResourceContent.Unreadable) whileDown.getFirst()).reason()).contains("not connected");
        // what was read before is kept for its time to live
        assertThat(((ResourceContent.Text) whileDown.get(1)).text()).contains("PERIWINKLE");
    }

    private static long reads(JsonNode seen, String uri) {
        long n = 0;
        for (JsonNode request : seen)
            if ("resources/read".equals(request.path("method").asText())
                    && uri.equals(request.path("uri").asText())) n++;
        return n;
    }

    private McpResources connect(Map<String, String> urls) {
        StringBuilder yaml = new StringBuilder(
                "restartDelay: 300ms\nhealthCheck: 500ms\nresources: { maxBytes: 1000, cacheTtl: 10m }\nservers:\n");
        urls.forEach((name, url) -> yaml.append("  ")
                .append(name)
                .append(": { url: \"")
                .append(url)
                .append("\", state: shared, sharedWith: [tester], timeout: 5s }\n"));
        clients = McpClients.start(
                McpSettings.parse(Yaml.parse(yaml.toString()), Map.of()), new InMemoryToolPins(), Clock.systemUTC());
        assertThat(clients.awaitFirstAttempts(Duration.ofSeconds(30))).isTrue();
        assertThat(clients.status()).allMatch(ServerStatus::up);
        return clients.resources();
    }

    private static Principal user(String id, Set<String> roles, String... permissions) {
        return new Principal(id, "t1", null, null, roles, Set.of(permissions), List.of());
    }

    private <T extends AutoCloseable> T opened(T resource) {
        opened.add(resource);
        return resource;
    }
}
