package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;

/** The standard-tool scenarios, shared by the SQLite and PostgreSQL suites (search differs by database). */
final class StandardToolsChecks {

    private StandardToolsChecks() {}

    static JsonNode send(TestServer t, String token, String session, String content) {
        var r = t.api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                ApiClient.JSON.createObjectNode().put("content", content).toString());
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

    static void assignmentInfo(TestServer t) {
        String token = StudyFixture.token("vera", "eng-101");
        String essay = t.api.post("/v1/sessions", token, "{\"assignmentId\":\"essay\"}")
                .body()
                .path("id")
                .asText();
        JsonNode call = send(t, token, essay, "what is my assignment?")
                .path("toolCalls")
                .get(0);
        assertThat(call.path("name").asText()).isEqualTo("get_assignment_info");
        assertThat(call.path("state").asText()).isEqualTo("succeeded");
        JsonNode a = call.path("result").path("assignment");
        assertThat(a.path("id").asText()).isEqualTo("essay");
        assertThat(a.path("title").asText()).isEqualTo("Persuasive essay");
        assertThat(a.path("instructions").asText()).contains("school uniforms");
        assertThat(a.path("class").asText()).isEqualTo("eng-101");
        assertThat(a.path("closesAt").asText()).isEqualTo("2026-04-01T00:00:00Z");

        String free = t.api.startSession(token, "tutor");
        JsonNode none =
                send(t, token, free, "what is my assignment?").path("toolCalls").get(0);
        assertThat(none.path("state").asText()).isNotEqualTo("succeeded");
        assertThat(none.path("error").asText()).contains("no_assignment");
    }

    static void searchPriorSessions(TestServer t) {
        String alice = StudyFixture.token("alice-" + System.nanoTime());
        String bob = StudyFixture.token("bob-" + System.nanoTime());
        String aliceEarlier = t.api.startSession(alice, "plain");
        send(t, alice, aliceEarlier, "Photosynthesis turns sunlight into sugar in the leaves");
        String aliceOther = t.api.startSession(alice, "plain");
        send(t, alice, aliceOther, "The French revolution began in 1789");
        String bobs = t.api.startSession(bob, "plain");
        send(t, bob, bobs, "Bob's private photosynthesis diary");

        String now = t.api.startSession(alice, "plain");
        JsonNode call = send(t, alice, now, "search for photosynthesis")
                .path("toolCalls")
                .get(0);

        assertThat(call.path("name").asText()).isEqualTo("search_prior_sessions");
        JsonNode results = call.path("result").path("results");
        assertThat(results).extracting(r -> r.path("sessionId").asText()).containsExactly(aliceEarlier);
        assertThat(results.get(0).path("snippet").asText()).containsIgnoringCase("photosynthesis");
        assertThat(results.get(0).path("startedAt").asText()).isNotBlank();
        assertThat(results.toString()).doesNotContain("Bob").doesNotContain(bobs);

        // bob finds his own, not alice's
        String bobNow = t.api.startSession(bob, "plain");
        JsonNode bobResults = send(t, bob, bobNow, "search for photosynthesis")
                .path("toolCalls")
                .get(0)
                .path("result")
                .path("results");
        assertThat(bobResults).extracting(r -> r.path("sessionId").asText()).containsExactly(bobs);
    }

    static void notes(TestServer t) {
        String carol = StudyFixture.token("carol-" + System.nanoTime());
        String dave = StudyFixture.token("dave-" + System.nanoTime());

        var created = t.api.post("/v1/notes", carol, "{\"title\":\"Thesis\",\"content\":\"Uniforms reduce cost.\"}");
        assertThat(created.status()).isEqualTo(201);
        String id = created.body().path("note").path("id").asText();
        assertThat(t.api.get("/v1/notes/" + id, carol)
                        .body()
                        .path("note")
                        .path("content")
                        .asText())
                .isEqualTo("Uniforms reduce cost.");
        var patched = t.api.patch("/v1/notes/" + id, carol, "{\"content\":\"Uniforms reduce bullying.\"}");
        assertThat(patched.body().path("note").path("content").asText()).isEqualTo("Uniforms reduce bullying.");
        assertThat(t.api.post("/v1/notes", carol, "{\"title\":\"\",\"content\":\"x\"}")
                        .status())
                .isEqualTo(422);
        assertThat(t.api.post("/v1/notes", carol, "{\"title\":\"t\",\"content\":\"x\",\"userId\":\"dave\"}")
                        .status())
                .isEqualTo(400);

        // the tool writes through the same service, linked to the conversation
        String session = t.api.startSession(carol, "tutor");
        JsonNode call = send(t, carol, session, "note that counterarguments come second")
                .path("toolCalls")
                .get(0);
        assertThat(call.path("name").asText()).isEqualTo("create_note");
        assertThat(call.path("result").path("note").path("sessionId").asText()).isEqualTo(session);
        JsonNode list = t.api.get("/v1/notes", carol).body();
        assertThat(list.path("count").asInt()).isEqualTo(2);
        assertThat(list.path("notes").get(0).path("content").asText()).isEqualTo("counterarguments come second");

        // another user's note does not exist for them, whatever they try
        assertThat(t.api.get("/v1/notes/" + id, dave).status()).isEqualTo(404);
        assertThat(t.api.patch("/v1/notes/" + id, dave, "{\"title\":\"mine now\"}")
                        .status())
                .isEqualTo(404);
        assertThat(t.api.delete("/v1/notes/" + id, dave).status()).isEqualTo(404);
        assertThat(t.api.get("/v1/notes", dave).body().path("count").asInt()).isZero();

        assertThat(t.api.delete("/v1/notes/" + id, carol).status()).isEqualTo(204);
        assertThat(t.api.get("/v1/notes/" + id, carol).status()).isEqualTo(404);
    }
}
