package dev.baton.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class McpResourceMetadataTest {

    @Test
    void the_metadata_url_inserts_the_well_known_path_between_the_host_and_the_resources_path() {
        assertThat(McpResourceMetadata.metadataUrl(URI.create("https://baton.example.org/mcp")))
                .isEqualTo("https://baton.example.org/.well-known/oauth-protected-resource/mcp");
        // behind a proxy that serves Baton under a prefix (RFC 9728 §3.1)
        assertThat(McpResourceMetadata.metadataUrl(URI.create("https://example.org:8443/baton/mcp")))
                .isEqualTo("https://example.org:8443/.well-known/oauth-protected-resource/baton/mcp");
        assertThat(McpResourceMetadata.metadataUrl(URI.create("https://mcp.example.org/")))
                .isEqualTo("https://mcp.example.org/.well-known/oauth-protected-resource");
    }
}
