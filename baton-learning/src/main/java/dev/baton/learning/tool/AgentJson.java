package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.learning.content.ContentJob;
import dev.baton.learning.library.GranularityVerdict;
import dev.baton.learning.library.TopicMatch;
import dev.baton.learning.library.TopicSearch;
import dev.baton.learning.memory.AgentMemory;
import dev.baton.learning.memory.AgentState;
import dev.baton.learning.memory.DecisionPoint;
import dev.baton.learning.progress.LearnerProgress;

/**
 * The JSON shapes of the learning agent's tools and of its memory and content jobs over REST, with the field names
 * the learning agent's design uses ({@code exactMatch}, {@code fuzzyMatches}, {@code found}, …).
 */
public final class AgentJson {
    private AgentJson() {}

    /** {@code {id, name, granularity, path, matchedTerm, score}} */
    public static ObjectNode match(TopicMatch m) {
        ObjectNode json = LearningJson.MAPPER
                .createObjectNode()
                .put("id", m.entry().id())
                .put("name", m.entry().name())
                .put("granularity", m.entry().granularity().wireName());
        m.entry().path().forEach(json.putArray("path")::add);
        return json.put("matchedTerm", m.matchedTerm()).put("score", Math.round(m.score() * 100) / 100.0);
    }

    /** {@code {exactMatch: MATCH|null, fuzzyMatches: [MATCH], found}} */
    public static ObjectNode search(TopicSearch s) {
        ObjectNode json = LearningJson.MAPPER.createObjectNode();
        json.set("exactMatch", s.exactMatch() == null ? null : match(s.exactMatch()));
        s.fuzzyMatches().forEach(m -> json.withArray("fuzzyMatches").add(match(m)));
        if (!json.has("fuzzyMatches")) json.putArray("fuzzyMatches");
        return json.put("found", s.found());
    }

    /** {@code {granularity, reasoning, inLibrary, match: MATCH|null}} */
    public static ObjectNode verdict(GranularityVerdict v) {
        ObjectNode json = LearningJson.MAPPER
                .createObjectNode()
                .put("granularity", v.granularity().wireName())
                .put("reasoning", v.reasoning())
                .put("inLibrary", v.inLibrary());
        json.set("match", v.match() == null ? null : match(v.match()));
        return json;
    }

    /** {@code {jobId, topic, status, attempts, createdAt, updatedAt, content?, error?}} */
    public static ObjectNode job(ContentJob j, boolean withContent) {
        ObjectNode json = LearningJson.MAPPER
                .createObjectNode()
                .put("jobId", j.id())
                .put("topic", j.topic())
                .put("status", j.status().wireName())
                .put("attempts", j.attempts())
                .put("createdAt", j.createdAt().toString())
                .put("updatedAt", j.updatedAt().toString());
        if (withContent && j.content() != null) json.put("content", j.content());
        if (j.error() != null) json.put("error", j.error());
        return json;
    }

    public static ObjectNode state(AgentState s) {
        return stateFields(LearningJson.MAPPER.createObjectNode(), s);
    }

    /** The state's fields written into {@code json}, which the memory and progress shapes share. */
    private static ObjectNode stateFields(ObjectNode json, AgentState s) {
        return json.put("currentTopic", s.currentTopic())
                .put(
                        "currentGranularity",
                        s.currentGranularity() == null
                                ? null
                                : s.currentGranularity().wireName())
                .put("pendingQuestion", s.pendingQuestion())
                .put("updatedAt", s.updatedAt().toString());
    }

    public static ObjectNode decision(DecisionPoint d) {
        ObjectNode json = LearningJson.MAPPER
                .createObjectNode()
                .put("id", d.id())
                .put("decision", d.decision())
                .put("sessionId", d.sessionId());
        json.set("data", d.data());
        return json.put("createdAt", d.createdAt().toString());
    }

    /**
     * {@code {userId, currentTopic, currentGranularity, pendingQuestion, updatedAt, decisions: [...], conversationId,
     * conversationHistory: [{role, content, timestamp}]}}
     */
    public static ObjectNode memory(AgentMemory m) {
        ObjectNode json = LearningJson.MAPPER
                .createObjectNode()
                .put("userId", m.state().learner().userId());
        stateFields(json, m.state());
        m.decisions().forEach(d -> json.withArray("decisions").add(decision(d)));
        if (!json.has("decisions")) json.putArray("decisions");
        // the design's AgentMessage: {role, content, timestamp}, oldest first, of the running conversation
        json.put(
                "conversationId",
                m.history().isEmpty() ? null : m.history().getFirst().conversationId());
        var history = json.putArray("conversationHistory");
        m.history()
                .forEach(h -> history.add(LearningJson.MAPPER
                        .createObjectNode()
                        .put("role", h.role())
                        .put("content", h.content())
                        .put("timestamp", h.timestamp().toString())));
        return json;
    }

    /** {@code {currentTopic, currentGranularity, pendingQuestion, enrollments: [...], content: [...]}} */
    public static ObjectNode progress(LearnerProgress p) {
        ObjectNode json = stateFields(LearningJson.MAPPER.createObjectNode(), p.state());
        var enrolments = json.putArray("enrollments");
        p.enrolments()
                .forEach(e -> enrolments.add(LearningJson.MAPPER
                        .createObjectNode()
                        .put("courseId", e.course().id())
                        .put("title", e.course().title())
                        .put("progressPercent", e.enrolment().progressPercent())
                        .put("status", e.enrolment().status().wireName())));
        var content = json.putArray("content");
        p.content().forEach(j -> content.add(job(j, false)));
        return json;
    }
}
