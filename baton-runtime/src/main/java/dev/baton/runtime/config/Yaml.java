package dev.baton.runtime.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/** Reads configuration files (baton.yaml, agents/*.yaml) into trees that each feature reads its own section of. */
public final class Yaml {
    private static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory());

    private Yaml() {}

    /** The file as a tree. */
    public static JsonNode read(Path file) {
        try {
            return MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new ConfigException(file + ": " + e.getMessage());
        }
    }

    /** The stream as a tree; {@code source} names it in errors. */
    public static JsonNode read(InputStream in, String source) {
        try {
            return MAPPER.readTree(in);
        } catch (IOException e) {
            throw new ConfigException(source + ": " + e.getMessage());
        }
    }

    /** YAML text as a tree (tests, configuration built in code). */
    public static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new ConfigException("bad YAML: " + e.getMessage());
        }
    }
}
