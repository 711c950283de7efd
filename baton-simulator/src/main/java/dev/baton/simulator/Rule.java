package dev.baton.simulator;

import java.util.Objects;
import java.util.Optional;

/**
 * One rule of a {@link SimulatorScript}.
 *
 * @param name for logs and error messages
 * @param pacing overrides the script's pacing for answers of this rule; null keeps the script's
 */
public record Rule(String name, Responder responder, Pacing pacing) {

    public Rule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(responder, "responder");
    }

    /** A declarative rule: when {@code condition} matches, answer {@code reply} with captures substituted. */
    public static Rule when(Condition condition, Reply reply) {
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(reply, "reply");
        return new Rule(
                condition.toString(),
                request -> condition.match(request).map(captures -> CaptureSubstitution.apply(reply, captures)),
                null);
    }

    /** A rule written in Java. */
    public static Rule of(String name, Responder responder) {
        return new Rule(name, responder, null);
    }

    public Rule withPacing(Pacing rulePacing) {
        return new Rule(name, responder, rulePacing);
    }

    public Rule named(String newName) {
        return new Rule(newName, responder, pacing);
    }

    Optional<Reply> respond(RecordedRequest request) {
        return responder.respond(request);
    }
}
