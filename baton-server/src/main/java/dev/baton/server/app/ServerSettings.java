package dev.baton.server.app;

import dev.baton.app.AppSettings;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ProviderSettings;
import dev.baton.runtime.admission.RateLimitSettings;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.server.auth.JwtSettings;
import dev.baton.server.metrics.MetricsSettings;
import dev.baton.server.trace.TracingSettings;
import java.util.List;
import java.util.Objects;

/**
 * What {@code baton serve} reads and checks before anything is opened: the assembly's settings ({@link AppSettings})
 * and the front door's own sections — token verification, metrics, tracing.
 */
public record ServerSettings(AppSettings app, JwtSettings jwt, MetricsSettings metrics, TracingSettings tracing) {

    public ServerSettings {
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(jwt, "jwt");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(tracing, "tracing");
    }

    /** Reads and checks {@code config}; a problem found in baton.yaml is reported without its line. */
    public static ServerSettings read(BatonConfig config) {
        return read(config, ConfigFile.none("baton.yaml"));
    }

    /**
     * Reads and checks {@code config}, which was loaded from {@code file}.
     *
     * @throws ConfigException naming the file, the line and the setting when something is wrong
     */
    public static ServerSettings read(BatonConfig config, ConfigFile file) {
        JwtSettings jwt;
        MetricsSettings metrics;
        TracingSettings tracing;
        try {
            jwt = JwtSettings.parse(config.section(JwtSettings.SECTION), config.env(), config.jwtSecret());
            metrics = MetricsSettings.parse(config.section(MetricsSettings.SECTION), config.env());
            tracing = TracingSettings.parse(config.section(TracingSettings.SECTION), config.env());
        } catch (RuntimeException e) {
            throw AppSettings.locate(e, file);
        }
        return new ServerSettings(AppSettings.read(config, file), jwt, metrics, tracing);
    }

    public BatonConfig config() {
        return app.config();
    }

    public AgentRegistry agents() {
        return app.agents();
    }

    public ProviderSettings providers() {
        return app.providers();
    }

    public boolean simulatorOnly() {
        return app.simulatorOnly();
    }

    public String defaultModel() {
        return app.defaultModel();
    }

    public RateLimitSettings rateLimits() {
        return app.rateLimits();
    }

    /** See {@link AppSettings#checkModels()}. */
    public List<String> checkModels() {
        return app.checkModels();
    }
}
