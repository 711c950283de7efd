package dev.baton.providers.streaming;

import dev.baton.core.model.ModelRequest;
import org.slf4j.Logger;

/** The debug line each transport writes for a model call. */
final class ModelCallLog {
    private ModelCallLog() {}

    /** Never logs message contents: only their number. */
    static void call(Logger log, String provider, ModelRequest request) {
        log.debug(
                "{} call: model={}, messages={}, tools={}",
                provider,
                request.model(),
                request.messages().size(),
                request.tools().size());
    }
}
