package dev.baton.modules.pii;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.hook.HookResult;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** What the module records about findings: kinds and counts only, never the matched text. */
final class PiiFindings {

    static final String EXTRACTION_TYPE = "pii_detected";
    static final String AUDIT_REASON = "pii redacted";

    /** Where the findings were. */
    enum Location {
        USER_MESSAGE("user_message"),
        RESPONSE("response");

        final String wireName;

        Location(String wireName) {
            this.wireName = wireName;
        }
    }

    private PiiFindings() {}

    /**
     * {@code result} with an audit note ({@code original} may be null: the pipeline then records what the module
     * was given) and a {@code pii_detected} extraction: {@code {location, types: [..], counts: {type: n}}}.
     */
    static HookResult.Continue record(
            HookResult.Continue result, Location location, List<PiiType> found, String original) {
        Map<PiiType, Integer> counts = new EnumMap<>(PiiType.class);
        found.forEach(t -> counts.merge(t, 1, Integer::sum));
        List<String> types = counts.keySet().stream().map(PiiType::wireName).toList();

        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("location", location.wireName);
        types.forEach(data.putArray("types")::add);
        ObjectNode countsNode = data.putObject("counts");
        counts.forEach((t, n) -> countsNode.put(t.wireName(), n));

        return result.withAudit(new HookResult.Audit(original, AUDIT_REASON, types))
                .withExtraction(EXTRACTION_TYPE, data);
    }
}
