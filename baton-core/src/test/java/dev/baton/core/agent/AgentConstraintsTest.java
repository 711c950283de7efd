package dev.baton.core.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.core.testing.TestTools;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An agent's constraints are read once, in any of their three forms, and sent on as they were written. */
class AgentConstraintsTest {

    @Test
    void a_text_a_list_of_rules_and_a_mapping_are_each_read_into_their_parts() {
        assertThat(AgentConstraints.from(TestTools.json("\"Be brief.\"")).text())
                .isEqualTo("Be brief.");
        assertThat(AgentConstraints.from(TestTools.json("[\"One.\", \"Two.\"]")).rules())
                .containsExactly("One.", "Two.");
        AgentConstraints mapping = AgentConstraints.from(TestTools.json("""
                {"topics": ["algebra", {"name": "geometry", "keywords": ["angle"]}],
                 "rules": "Never cheat.", "deny": ["\\\\bcheat"], "tone": "friendly"}
                """));
        assertThat(mapping.topics())
                .containsExactly(
                        AgentConstraints.Topic.of("algebra"), new AgentConstraints.Topic("geometry", List.of("angle")));
        assertThat(mapping.rules()).containsExactly("Never cheat.");
        assertThat(mapping.deny()).containsExactly("\\bcheat");
        assertThat(mapping.other()).containsOnlyKeys("tone");
        assertThat(AgentConstraints.from(MissingNode.getInstance())).isEqualTo(AgentConstraints.NONE);
        assertThat(AgentConstraints.NONE.isEmpty()).isTrue();
    }

    @Test
    void each_form_is_written_back_as_it_was_configured() {
        for (String written : List.of(
                "\"Be brief.\"",
                "[\"One.\",\"Two.\"]",
                "{\"topics\":[\"algebra\",{\"name\":\"geometry\",\"keywords\":[\"angle\"]}],\"rules\":[\"R.\"],"
                        + "\"deny\":[\"x\"],\"tone\":{\"level\":2}}",
                "{}")) {
            assertThat(AgentConstraints.from(TestTools.json(written)).toJson())
                    .as(written)
                    .isEqualTo(TestTools.json(written));
        }
    }

    @Test
    void constraints_written_in_code_read_like_those_of_a_file() {
        assertThat(AgentConstraints.NONE
                        .withTopics(List.of(AgentConstraints.Topic.of("algebra")))
                        .withDeny(List.of("cheat")))
                .isEqualTo(AgentConstraints.from(TestTools.json("{\"topics\": [\"algebra\"], \"deny\": [\"cheat\"]}")));
    }
}
