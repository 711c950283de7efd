package dev.baton.mcp.pin;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The pin rules every {@link ToolPins} follows; baton-store-jdbc holds its database to the same ones. */
class InMemoryToolPinsTest {
    final ToolPins pins = new InMemoryToolPins();
    final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void the_first_sighting_pins_and_a_matching_one_changes_nothing() {
        assertThat(pins.observe("s", "t", "h1", t0).changed()).isFalse();
        ToolPin again = pins.observe("s", "t", "h1", t0.plusSeconds(60));

        assertThat(again.pinnedHash()).isEqualTo("h1");
        assertThat(again.pinnedAt()).isEqualTo(t0);
        assertThat(again.changed()).isFalse();
    }

    @Test
    void a_different_sighting_is_a_change_that_keeps_its_first_time_until_accepted() {
        pins.observe("s", "t", "h1", t0);
        pins.observe("s", "t", "h2", t0.plusSeconds(1));
        ToolPin seenAgain = pins.observe("s", "t", "h2", t0.plusSeconds(2));

        assertThat(seenAgain.changedHash()).isEqualTo("h2");
        assertThat(seenAgain.changedAt()).isEqualTo(t0.plusSeconds(1));
        assertThat(pins.accept("s", "t", "h3", t0.plusSeconds(3))).isFalse();
        assertThat(pins.accept("s", "t", "h2", t0.plusSeconds(3))).isTrue();
        assertThat(pins.observe("s", "t", "h2", t0.plusSeconds(4)).changed()).isFalse();
    }

    @Test
    void a_tool_that_changes_back_to_its_pin_is_no_longer_changed() {
        pins.observe("s", "t", "h1", t0);
        pins.observe("s", "t", "h2", t0.plusSeconds(1));

        assertThat(pins.observe("s", "t", "h1", t0.plusSeconds(2)).changed()).isFalse();
        assertThat(pins.accept("s", "t", "h2", t0.plusSeconds(3))).isFalse();
    }

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
