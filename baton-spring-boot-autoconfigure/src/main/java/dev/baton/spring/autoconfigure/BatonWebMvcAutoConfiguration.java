package dev.baton.spring.autoconfigure;

import dev.baton.app.BatonApp;
import dev.baton.app.config.BatonConfig;
import dev.baton.runtime.Baton;
import dev.baton.spring.security.AuthoritiesPrincipalConverter;
import dev.baton.spring.security.PrincipalConverter;
import dev.baton.spring.security.SpringSecurityCallers;
import dev.baton.spring.web.BatonApiController;
import dev.baton.spring.web.BatonCatalogController;
import dev.baton.spring.web.BatonDeliveredMessagesController;
import dev.baton.spring.web.BatonSessionController;
import dev.baton.spring.web.BatonTokenCallers;
import dev.baton.spring.web.BatonTurnEventsController;
import dev.baton.spring.web.CallerResolver;
import dev.baton.spring.web.ErrorResponses;
import dev.baton.spring.web.SseHeartbeats;
import java.time.Clock;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Baton's HTTP API served by the app's Spring MVC under {@code baton.api.base-path} ({@code baton.api.enabled=false}
 * turns it off). Spring MVC with {@link SseEmitter} rather than WebFlux: Baton's runtime is blocking on virtual
 * threads, so a servlet stack serves it without adapting every call to a reactive type.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(SseEmitter.class)
@ConditionalOnBean(Baton.class)
@ConditionalOnProperty(prefix = "baton.api", name = "enabled", havingValue = "true", matchIfMissing = true)
public class BatonWebMvcAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public BatonApiController batonApiController(
            Baton baton, CallerResolver callers, BatonProperties properties, SseHeartbeats heartbeats) {
        return new BatonApiController(
                baton,
                callers,
                properties.api().maxBodyBytes(),
                properties.api().streamTimeout(),
                heartbeats);
    }

    /** The heartbeats of the API's SSE streams: one scheduler thread, stopped with the app. */
    @Bean
    @ConditionalOnMissingBean
    public SseHeartbeats batonSseHeartbeats(BatonProperties properties) {
        return new SseHeartbeats(properties.api().sseHeartbeat());
    }

    @Bean
    @ConditionalOnMissingBean
    public BatonSessionController batonSessionController(
            Baton baton, CallerResolver callers, BatonProperties properties) {
        return new BatonSessionController(baton, callers, properties.api().maxBodyBytes());
    }

    @Bean
    @ConditionalOnMissingBean
    public BatonTurnEventsController batonTurnEventsController(
            Baton baton, CallerResolver callers, BatonProperties properties, SseHeartbeats heartbeats) {
        return new BatonTurnEventsController(baton, callers, properties.api().streamTimeout(), heartbeats);
    }

    @Bean
    @ConditionalOnMissingBean
    public BatonDeliveredMessagesController batonDeliveredMessagesController(
            BatonApp app, CallerResolver callers, BatonProperties properties, SseHeartbeats heartbeats) {
        return new BatonDeliveredMessagesController(
                app.baton(), app.deliveries(), callers, properties.api().streamTimeout(), heartbeats);
    }

    @Bean
    @ConditionalOnMissingBean
    public BatonCatalogController batonCatalogController(Baton baton, CallerResolver callers) {
        return new BatonCatalogController(baton, callers);
    }

    @Bean
    @ConditionalOnMissingBean
    public ErrorResponses batonErrorResponses() {
        return new ErrorResponses();
    }

    /** The caller is Spring Security's authenticated user. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.security.core.context.SecurityContextHolder")
    static class SpringSecurityCaller {

        @Bean
        @ConditionalOnMissingBean
        public PrincipalConverter batonPrincipalConverter(BatonProperties properties, BatonApp app) {
            BatonProperties.Security security = properties.security();
            return new AuthoritiesPrincipalConverter(
                    security.tenantClaim(),
                    security.permissionPrefixes(),
                    app.settings().config().rolePermissions());
        }

        @Bean
        @ConditionalOnMissingBean
        public CallerResolver batonCallers(PrincipalConverter converter) {
            return new SpringSecurityCallers(converter);
        }
    }

    /** Without Spring Security: Baton's own HS256 tokens ({@code baton.jwt.secret}). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass("org.springframework.security.core.context.SecurityContextHolder")
    @ConditionalOnClass(name = "com.nimbusds.jwt.SignedJWT")
    static class BatonTokenCaller {

        @Bean
        @ConditionalOnMissingBean
        public CallerResolver batonCallers(BatonApp app) {
            BatonConfig config = app.settings().config();
            return new BatonTokenCallers(config.jwtSecret(), config.rolePermissions(), Clock.systemUTC());
        }
    }
}
