package dev.baton.providers.langchain;

import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.lang.reflect.Field;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes LangChain4j's Anthropic module write its requests compactly and reuse Jackson's buffers (the OpenAI adapter
 * writes its own requests).
 *
 * <p>The module serialises every request with an {@code ObjectMapper} of its own that has {@code INDENT_OUTPUT}
 * on and that offers no setting to turn it off. A request carries the agent's whole tool catalogue, so it runs to
 * several kilobytes: pretty-printing it made writing it about a third dearer and its bytes on the wire a quarter
 * more, on every model call. The mapper's buffers are also recycled per thread, and every call runs on a new virtual
 * thread, so each call allocated them afresh. Both are fixed on the modules' mappers here, once, before any call;
 * the JSON a provider receives means the same. When a LangChain4j release renames what this reaches, nothing changes
 * but speed, and the fact is logged once.
 */
public final class LangChainWireJson {
    private static final Logger log = LoggerFactory.getLogger(LangChainWireJson.class);

    /** The holders of the modules' mappers, as LangChain4j 1.19 names them. */
    private static final List<String> HOLDERS = List.of("dev.langchain4j.model.anthropic.internal.client.Json");

    private static volatile boolean tuned;

    private LangChainWireJson() {}

    /** Tunes the mappers of the modules on the class path; later calls do nothing. */
    public static void tune() {
        if (tuned) return;
        synchronized (LangChainWireJson.class) {
            if (tuned) return;
            HOLDERS.forEach(LangChainWireJson::tune);
            tuned = true;
        }
    }

    /** The mapper of {@code holder}, tuned; null when it cannot be reached. */
    static ObjectMapper tune(String holder) {
        try {
            Field field = Class.forName(holder).getDeclaredField("OBJECT_MAPPER");
            field.setAccessible(true);
            ObjectMapper mapper = (ObjectMapper) field.get(null);
            mapper.disable(SerializationFeature.INDENT_OUTPUT);
            mapper.getFactory().setRecyclerPool(JsonRecyclerPools.sharedConcurrentDequePool());
            return mapper;
        } catch (ClassNotFoundException e) {
            return null; // that module is not on the class path
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.info("LangChain4j's request JSON stays pretty-printed: {} cannot be tuned ({})", holder, e.toString());
            return null;
        }
    }
}
