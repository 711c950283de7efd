package dev.baton.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;

/** How a report is written: JSON (the whole record, every run and check) or Markdown (for people and CI pages). */
public enum ReportFormat {
    JSON,
    MARKDOWN;

    static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .addModule(new JavaTimeModule())
            .build();

    /** The format a report file's name asks for: {@code .json}, or {@code .md} / {@code .markdown}. */
    public static ReportFormat of(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".json")) return JSON;
        if (name.endsWith(".md") || name.endsWith(".markdown")) return MARKDOWN;
        throw new IllegalArgumentException("cannot tell the report format from '" + file + "': name it .json or .md");
    }

    public String render(EvalReport report) {
        return switch (this) {
            case JSON -> json(report);
            case MARKDOWN -> MarkdownReport.render(report);
        };
    }

    /** A report written as JSON, read back (an experiment keeping a run's result). */
    public static EvalReport readJson(String json) {
        try {
            return MAPPER.readValue(json, EvalReport.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not an eval report: " + e.getOriginalMessage(), e);
        }
    }

    private static String json(EvalReport report) {
        try {
            return MAPPER.writeValueAsString(report) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
