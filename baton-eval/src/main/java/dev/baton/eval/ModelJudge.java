package dev.baton.eval;

import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.turn.Cancellation;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A model as judge: it reads the user's message, the tools the agent called and the answer, and replies PASS or FAIL
 * with a reason on its first line. A reply that is neither counts as a failure, so a confused judge never passes a
 * turn.
 */
public final class ModelJudge implements Judge {

    static final String INSTRUCTIONS = """
            You grade one reply of an AI assistant against a rubric. Read the user's message, the tools the \
            assistant called and its answer. Reply with one line: PASS or FAIL, a colon, and one short sentence \
            saying why. Judge only what the rubric asks.""";

    private final ModelBinding model;
    private final Duration timeout;

    public ModelJudge(ModelBinding model, Duration timeout) {
        this.model = Objects.requireNonNull(model, "model");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    @Override
    public Verdict judge(String rubric, TurnObservation turn) {
        String question = "Rubric: " + rubric + "\n\nUser: " + turn.message() + "\n\nTools called: "
                + (turn.toolNames().isEmpty() ? "none" : String.join(", ", turn.toolNames()))
                + "\n\nAssistant: " + turn.answer();
        ModelReply reply;
        try {
            reply = model.gateway().stream(
                    new ModelRequest(
                            model.model(),
                            List.of(new ChatMessage.System(INSTRUCTIONS), new ChatMessage.User(question)),
                            List.of(),
                            timeout,
                            new Cancellation()),
                    delta -> {});
        } catch (ModelFailure e) {
            return new Verdict(false, "the judge " + model.reference() + " failed: " + e.getMessage());
        }
        return verdict(reply.text());
    }

    /** PASS or FAIL at the start of the reply, and what follows as the reason. */
    static Verdict verdict(String text) {
        String reply = text.strip();
        String upper = reply.toUpperCase(Locale.ROOT);
        String reason =
                reply.replaceFirst("(?i)^(pass|fail)\\s*[:.\\-–—]?\\s*", "").strip();
        if (upper.startsWith("PASS")) return new Verdict(true, reason);
        if (upper.startsWith("FAIL")) return new Verdict(false, reason.isEmpty() ? "the judge said FAIL" : reason);
        String shown = reply.length() > 120 ? reply.substring(0, 117) + "..." : reply;
        return new Verdict(false, "the judge gave no verdict: '" + shown + "'");
    }
}
