package dev.baton.learning.content;

import dev.baton.runtime.delivery.DeliveredMessages;
import dev.baton.runtime.delivery.Delivery;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers a completed job's material into the session whose generateContent call started it, through the runtime
 * ({@link DeliveredMessages}): an assistant message in that conversation, announced to the learner's clients. A job
 * started over REST belongs to no conversation and is delivered nowhere.
 */
public final class SessionContentDelivery implements ContentDelivery {
    /** The source a delivered message names. */
    public static final String SOURCE = "learning.content";

    private static final Logger log = LoggerFactory.getLogger(SessionContentDelivery.class);

    private final DeliveredMessages deliveries;

    public SessionContentDelivery(DeliveredMessages deliveries) {
        this.deliveries = Objects.requireNonNull(deliveries, "deliveries");
    }

    @Override
    public void deliver(ContentJob job) {
        String sessionId = job.origin().sessionId();
        if (sessionId == null || job.content() == null) return;
        var delivered = deliveries.deliver(
                new Delivery(job.learner().tenantId(), job.learner().userId(), sessionId, message(job), SOURCE));
        if (delivered.isEmpty()) log.info("content job {}: its conversation is gone; not delivered", job.id());
    }

    /** The material with one line that says what it is. */
    static String message(ContentJob job) {
        return "Your material on " + job.topic() + " is ready.\n\n" + job.content();
    }
}
