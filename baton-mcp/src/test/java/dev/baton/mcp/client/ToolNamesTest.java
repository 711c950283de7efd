package dev.baton.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ToolNamesTest {

    @Test
    void a_safe_name_is_prefixed_with_its_server() {
        assertThat(ToolNames.exposed("memory", "create_entities")).isEqualTo("memory__create_entities");
        assertThat(ToolNames.exposed("everything", "get-sum")).isEqualTo("everything__get-sum");
    }

    @Test
    void unsafe_characters_are_replaced_and_a_hash_keeps_look_alikes_apart() {
        String dotted = ToolNames.exposed("notes", "notes.search");
        String underscored = ToolNames.exposed("notes", "notes_search");

        assertThat(dotted).matches("notes__notes_search_[0-9a-f]{8}");
        assertThat(underscored).isEqualTo("notes__notes_search");
        assertThat(dotted).isNotEqualTo(underscored);
    }

    @Test
    void long_names_are_cut_to_64_characters_and_stay_distinct() {
        String a = ToolNames.exposed("server", "x".repeat(80) + "a");
        String b = ToolNames.exposed("server", "x".repeat(80) + "b");

        assertThat(a).hasSize(64).matches("[A-Za-z0-9_-]+").startsWith("server__");
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void two_servers_never_produce_the_same_name() {
        // server names have no underscores, so the first "__" always ends the server's part
        assertThat(ToolNames.exposed("a", "b__c")).isNotEqualTo(ToolNames.exposed("a-b", "c"));
    }
}
