package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.app.BatonApp;
import dev.baton.app.Instrumentation;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.Baton;
import dev.baton.runtime.tool.BatonTool;
import dev.baton.spring.security.SpringSecurityCallers;
import dev.baton.spring.web.BatonApiController;
import dev.baton.spring.web.BatonTokenCallers;
import dev.baton.spring.web.CallerResolver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.security.core.context.SecurityContextHolder;

/** Which beans the starter gives over a real SQLite database, and that each backs off for the app's own. */
class BatonAutoConfigurationIT {
    @TempDir
    Path dir;

    public static class Clocks {
        @BatonTool(name = "what_time", description = "The time now.")
        public String now(Principal caller) {
            return caller.userId() + ": noon";
        }
    }

    private WebApplicationContextRunner runner() {
        return new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        BatonMetricsAutoConfiguration.class,
                        BatonAutoConfiguration.class,
                        BatonHealthAutoConfiguration.class,
                        BatonWebMvcAutoConfiguration.class))
                .withPropertyValues("baton.database.url=jdbc:sqlite:" + dir.resolve("baton.db"));
    }

    @Test
    void the_apps_tool_beans_and_agents_join_a_whole_baton_served_over_spring_security() {
        runner().withBean("clocks", Clocks.class, Clocks::new)
                .withBean(
                        "timekeeper",
                        AgentDefinition.class,
                        () -> AgentDefinition.of("timekeeper", "Tell the time.", "simulator:any", List.of("what_time")))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Baton baton = context.getBean(Baton.class);
                    assertThat(baton.agents().all())
                            .extracting(AgentDefinition::id)
                            .startsWith("timekeeper");
                    assertThat(baton.tools().all()).containsKey("what_time");
                    assertThat(context).hasSingleBean(BatonApiController.class);
                    assertThat(context.getBean(CallerResolver.class)).isInstanceOf(SpringSecurityCallers.class);
                    assertThat(context).hasBean("batonHealthIndicator");
                });
    }

    @Test
    void without_spring_security_the_caller_comes_from_batons_own_tokens() {
        runner().withClassLoader(new FilteredClassLoader(SecurityContextHolder.class))
                .withPropertyValues("baton.jwt.secret=a-test-secret-of-at-least-32-bytes!!")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(CallerResolver.class)).isInstanceOf(BatonTokenCallers.class);
                });
    }

    @Test
    void the_apps_own_caller_resolver_wins_and_the_api_can_be_turned_off() {
        CallerResolver own = request -> Principal.of("t", "u", java.util.Set.of());
        runner().withBean(CallerResolver.class, () -> own)
                .run(context ->
                        assertThat(context.getBean(CallerResolver.class)).isSameAs(own));
        runner().withPropertyValues("baton.api.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(BatonApiController.class));
    }

    @Test
    void the_apps_meter_registry_gets_batons_meters_and_closing_the_app_closes_baton() {
        runner().withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            assertThat(context.getBean(Instrumentation.class)).isNotSameAs(Instrumentation.NONE);
            BatonApp app = context.getBean(BatonApp.class);
            context.close();
            assertThat(app.database().isUp(Duration.ofSeconds(2))).isFalse();
        });
    }
}
