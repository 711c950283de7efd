package dev.baton.spring.autoconfigure;

import dev.baton.app.BatonApp;
import dev.baton.spring.actuate.BatonHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.context.annotation.Bean;

/** Baton's health (database, model breakers, MCP servers) as the {@code baton} component of the app's health. */
@AutoConfiguration(after = BatonAutoConfiguration.class)
@ConditionalOnClass(AbstractHealthIndicator.class)
@ConditionalOnBean(BatonApp.class)
@ConditionalOnEnabledHealthIndicator("baton")
public class BatonHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "batonHealthIndicator")
    public BatonHealthIndicator batonHealthIndicator(BatonApp app) {
        return new BatonHealthIndicator(app);
    }
}
