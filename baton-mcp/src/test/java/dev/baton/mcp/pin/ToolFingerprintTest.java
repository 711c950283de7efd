package dev.baton.mcp.pin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a tool's fingerprint covers, so that a pin notices a change the model would. */
class ToolFingerprintTest {
    @Test
    void fingerprints_ignore_key_order_but_not_wording_or_hints() {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        try {
            var a = json.readTree("{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"}}}");
            var b = json.readTree("{\"properties\":{\"x\":{\"type\":\"string\"}},\"type\":\"object\"}");
            var destructive = json.readTree("{\"destructiveHint\":true}");
            var additive = json.readTree("{\"destructiveHint\":false}");
            assertThat(ToolFingerprint.of("d", a, null)).isEqualTo(ToolFingerprint.of("d", b, null));
            assertThat(ToolFingerprint.of("d", a, null)).isNotEqualTo(ToolFingerprint.of("d.", a, null));
            assertThat(ToolFingerprint.of("d", a, destructive)).isNotEqualTo(ToolFingerprint.of("d", a, additive));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
