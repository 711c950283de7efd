package dev.baton.modules.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.ModuleDescriptor;
import dev.baton.core.hook.ModuleFactory;
import dev.baton.modules.config.ModuleConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Creates {@code webhook} modules:
 *
 * <pre>{@code
 * modules:
 *   - id: webhook
 *     config:
 *       url: https://moderation.internal.example/baton     # fixed here, never taken from a request
 *       secretEnv: MODERATION_WEBHOOK_SECRET                # or secret: "..." (at least 16 characters)
 *       hooks: [chat:before_ai, chat:after_ai]              # default: chat:before_ai
 *       timeout: 2s                                         # the HTTP call's limit (default 2s)
 *     failClosed: false                                     # entry-level: block the turn if the webhook fails
 *     priority: 50
 * }</pre>
 */
public final class WebhookFactory implements ModuleFactory {

    static final int MIN_SECRET_LENGTH = 16;
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration PIPELINE_MARGIN = Duration.ofMillis(250);

    private static final Set<String> KEYS = Set.of("url", "secret", "secretEnv", "hooks", "timeout");

    private final Clock clock;
    private final Map<String, String> env;

    /** The factory {@link java.util.ServiceLoader} creates: system clock and environment. */
    public WebhookFactory() {
        this(Clock.systemUTC(), System.getenv());
    }

    WebhookFactory(Clock clock, Map<String, String> env) {
        this.clock = clock;
        this.env = Map.copyOf(env);
    }

    @Override
    public String id() {
        return WebhookModule.ID;
    }

    @Override
    public Module create(JsonNode config) {
        ModuleConfig c = ModuleConfig.of(WebhookModule.ID, config, KEYS);
        URI url = url(c);
        String secret = secret(c);
        Set<Hook> hooks = EnumSet.noneOf(Hook.class);
        for (String name : c.strings("hooks")) {
            try {
                hooks.add(Hook.fromWire(name));
            } catch (IllegalArgumentException e) {
                throw c.invalid("hooks", "names an unknown hook '" + name + "'");
            }
        }
        if (hooks.isEmpty()) {
            hooks.add(Hook.BEFORE_AI);
        }
        Duration timeout = c.duration("timeout", DEFAULT_TIMEOUT);
        // the pipeline's own limit is a little longer, so a slow endpoint ends as a clean HTTP timeout
        ModuleDescriptor descriptor = new ModuleDescriptor(
                WebhookModule.ID, ModuleDescriptor.DEFAULT_PRIORITY, timeout.plus(PIPELINE_MARGIN), false, hooks, null);
        return new WebhookModule(descriptor, url, secret, timeout, clock);
    }

    private static URI url(ModuleConfig c) {
        String text = c.requiredString("url");
        URI url;
        try {
            url = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw c.invalid("url", "is not a URL");
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !scheme.equals("http")) {
            throw c.invalid("url", "must be an http(s) URL");
        }
        if (url.getHost() == null || url.getHost().isBlank()) {
            throw c.invalid("url", "needs a host");
        }
        if (url.getUserInfo() != null) {
            throw c.invalid("url", "must not carry credentials; the request is signed with the secret");
        }
        return url;
    }

    private String secret(ModuleConfig c) {
        String inline = c.string("secret", null);
        String envName = c.string("secretEnv", null);
        if ((inline == null) == (envName == null)) {
            throw c.invalid("secret", "give exactly one of 'secret' and 'secretEnv'");
        }
        String secret = inline;
        if (envName != null) {
            secret = env.get(envName);
            if (secret == null || secret.isBlank()) {
                throw c.invalid("secretEnv", "names the environment variable " + envName + ", which is not set");
            }
        }
        if (secret.length() < MIN_SECRET_LENGTH) {
            throw c.invalid("secret", "must be at least " + MIN_SECRET_LENGTH + " characters");
        }
        return secret;
    }
}
