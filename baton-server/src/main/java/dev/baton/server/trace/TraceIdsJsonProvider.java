package dev.baton.server.trace;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import net.logstash.logback.composite.AbstractJsonProvider;
import tools.jackson.core.JsonGenerator;

/**
 * Adds {@code trace_id} and {@code span_id} to a JSON log line logged while a span is current (a traced turn's), so
 * a line leads to its trace. Nothing is written, and nothing allocated, when no span is current. The encoder runs on
 * the thread that logs (the console appender is synchronous): an asynchronous appender in front of it would lose
 * the span.
 */
public final class TraceIdsJsonProvider extends AbstractJsonProvider<ILoggingEvent> {
    @Override
    public void writeTo(JsonGenerator generator, ILoggingEvent event) {
        SpanContext span = Span.current().getSpanContext();
        if (!span.isValid()) return;
        generator.writeStringProperty("trace_id", span.getTraceId());
        generator.writeStringProperty("span_id", span.getSpanId());
    }
}
