package dev.baton.spring.autoconfigure;

import dev.baton.app.AppSettings;
import dev.baton.app.BatonApp;
import dev.baton.app.Instrumentation;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.trace.TurnTracing;
import dev.baton.runtime.Baton;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.spring.security.AuthenticatedTools;
import dev.baton.spring.tool.BeanTools;
import dev.baton.spring.trace.TracedInstrumentation;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

/**
 * A whole Baton in the app: {@link BatonApp} assembled from baton.yaml and the {@code baton.*} properties — its
 * database and stores, models, MCP servers, modules and the domains on the class path — plus the app's
 * {@code @BatonTool} beans as tools and its {@link AgentDefinition} beans as agents. Every bean backs off when the app
 * declares its own.
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
            "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
            "org.springframework.boot.liquibase.autoconfigure.LiquibaseAutoConfiguration"
        })
@EnableConfigurationProperties(BatonProperties.class)
public class BatonAutoConfiguration {
    private static final boolean SPRING_SECURITY = ClassUtils.isPresent(
            "org.springframework.security.core.context.SecurityContextHolder",
            BatonAutoConfiguration.class.getClassLoader());

    /**
     * The {@code @BatonTool} methods of the app's beans, called through their Spring proxies; with Spring Security on
     * the class path each runs with the call's caller as its authentication ({@link AuthenticatedTools}).
     */
    @Bean
    @ConditionalOnMissingBean
    public BatonHostTools batonHostTools(ConfigurableListableBeanFactory beans) {
        List<ToolSource> sources = new ArrayList<>();
        BeanTools.of(BeanTools.find(beans))
                .map(source -> SPRING_SECURITY ? SecurityWrapping.wrap(source) : source)
                .ifPresent(sources::add);
        return new BatonHostTools(sources);
    }

    /**
     * The whole Baton. With {@code baton.database.use-app-data-source} its tables live in the app's {@code DataSource},
     * migrated after the app's own database initialisation (Flyway, Liquibase, SQL scripts).
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @DependsOnDatabaseInitialization
    public BatonApp batonApp(
            BatonProperties properties,
            BatonHostTools tools,
            ObjectProvider<Instrumentation> instrumentation,
            ObjectProvider<TurnTracing> tracing,
            ObjectProvider<AgentDefinition> agents,
            ObjectProvider<DataSource> dataSources) {
        Map<String, String> env = properties.environment(System.getenv());
        ConfigFile file = ConfigLoader.read(properties.config(), env);
        BatonConfig config = ConfigLoader.from(file, env);
        AppSettings settings = withAgents(
                AppSettings.read(config, file), agents.orderedStream().toList());
        BatonApp.Options options = BatonApp.Options.DEFAULTS
                .withClock(Clock.systemUTC())
                .withSimulatorBaseUrl(properties.simulatorBaseUrl())
                .withInstrumentation(traced(instrumentation.getIfAvailable(() -> Instrumentation.NONE), tracing))
                .withTools(tools.sources());
        if (properties.database().useAppDataSource()) {
            DataSource dataSource = dataSources.getIfUnique();
            if (dataSource == null)
                throw new IllegalStateException("baton.database.use-app-data-source is set, but the app has no single"
                        + " DataSource bean for Baton's tables");
            options = options.withDataSource(dataSource);
        }
        return BatonApp.start(settings, options);
    }

    /** The runtime every front door calls; closed with the {@link BatonApp} that built it. */
    @Bean(destroyMethod = "")
    @ConditionalOnMissingBean
    public Baton baton(BatonApp app) {
        return app.baton();
    }

    /** {@code instrumentation} with the turns traced when the app has Baton's tracing (its OpenTelemetry). */
    private static Instrumentation traced(Instrumentation instrumentation, ObjectProvider<TurnTracing> tracing) {
        TurnTracing turns = tracing.getIfUnique();
        return turns == null || !turns.isOn() ? instrumentation : new TracedInstrumentation(instrumentation, turns);
    }

    /** The app's agents first (the first one a caller may use is the default), then baton.yaml's and the domains'. */
    static AppSettings withAgents(AppSettings settings, List<AgentDefinition> appAgents) {
        if (appAgents.isEmpty()) return settings;
        List<AgentDefinition> all = new ArrayList<>(appAgents);
        all.addAll(settings.agents().all());
        BatonConfig config = settings.config();
        return settings.withAgents(AgentRegistry.of(all)
                .withDefault(config.defaultAgent())
                .withDefaultTemperature(config.models().temperature()));
    }

    /** Kept apart so that Spring Security's classes load only when it is on the class path. */
    private static final class SecurityWrapping {
        static ToolSource wrap(ToolSource source) {
            return new AuthenticatedTools(source);
        }
    }
}
