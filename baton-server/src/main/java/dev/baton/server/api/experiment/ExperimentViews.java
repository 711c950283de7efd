package dev.baton.server.api.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.runtime.experiment.ArmMetrics;
import dev.baton.runtime.experiment.EvalRun;
import dev.baton.runtime.experiment.Experiment;
import dev.baton.runtime.experiment.ExperimentDefinition;
import dev.baton.runtime.experiment.ExperimentReport;
import dev.baton.runtime.experiment.OperatorAuditRecord;
import dev.baton.runtime.experiment.TriggerFired;
import dev.baton.runtime.flag.FlagState;
import dev.baton.server.http.Json;
import java.util.List;
import java.util.Map;

/** The admin API's JSON for experiments, their reports and flags. */
final class ExperimentViews {
    private ExperimentViews() {}

    /** The definition as it is created, with its id, version and whether a treatment still takes sessions. */
    static ObjectNode experiment(Experiment e) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("id", e.id());
        n.setAll(ExperimentDefinition.write(e));
        n.put("version", e.version());
        n.put("treating", e.treating());
        return n;
    }

    /** The experiment with its arms' metrics side by side, what breaks a trigger now, and its audit trail. */
    static ObjectNode report(ExperimentReport r) {
        ObjectNode n = experiment(r.experiment());
        n.put("since", r.since().toString());
        ArrayNode arms = n.putArray("metrics");
        for (ArmMetrics m : r.arms()) {
            ObjectNode a = arms.addObject();
            a.put("arm", m.arm());
            r.experiment()
                    .arm(m.arm())
                    .ifPresent(arm -> a.put("agent", arm.agentId()).put("weight", arm.weight()));
            a.put("turns", m.turns());
            a.put("failedTurns", m.failedTurns());
            a.put("users", m.users());
            a.put("errorRate", m.errorRate());
            a.put("p50LatencyMs", m.p50LatencyMs());
            a.put("p95LatencyMs", m.p95LatencyMs());
            a.put("conversations", m.conversations());
            a.put("costUsd", m.costUsd());
            a.put("costPerConversationUsd", m.costPerConversation());
            a.put("toolCalls", m.toolCalls());
            a.put("failedToolCalls", m.failedToolCalls());
            a.put("toolErrorRate", m.toolErrorRate());
            EvalRun eval = m.latestEval();
            if (eval == null) {
                a.putNull("evalPassRate");
            } else {
                a.put("evalPassRate", eval.passRate());
                a.set("eval", evalRun(eval));
            }
        }
        ObjectNode breaking = n.putObject("breaking");
        for (Map.Entry<String, List<TriggerFired>> b : r.breaking().entrySet()) {
            ArrayNode list = breaking.putArray(b.getKey());
            for (TriggerFired t : b.getValue())
                list.addObject()
                        .put("trigger", t.trigger())
                        .put("observed", t.observed())
                        .put("limit", t.limit());
        }
        ArrayNode trail = n.putArray("audit");
        r.trail().forEach(a -> trail.add(audit(a)));
        return n;
    }

    static ObjectNode evalRun(EvalRun run) {
        return Json.MAPPER
                .createObjectNode()
                .put("arm", run.arm())
                .put("suite", run.suite())
                .put("scenarios", run.scenarios())
                .put("passed", run.passed())
                .put("passRate", run.passRate())
                .put("recordedBy", run.recordedBy())
                .put("recordedAt", run.recordedAt().toString());
    }

    static ObjectNode audit(OperatorAuditRecord a) {
        ObjectNode n = Json.MAPPER
                .createObjectNode()
                .put("action", a.action())
                .put("actor", a.actor())
                .put("at", a.at().toString());
        try {
            n.set("detail", Json.MAPPER.readTree(a.detail()));
        } catch (JsonProcessingException e) {
            n.put("detail", a.detail());
        }
        return n;
    }

    static ObjectNode flag(FlagState f) {
        return Json.MAPPER
                .createObjectNode()
                .put("name", f.name())
                .put("percentage", f.percentage())
                .put("on", f.on())
                .put("source", f.source());
    }
}
