package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.app.BatonApp;
import dev.baton.app.Instrumentation;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.Baton;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.tool.BatonTool;
import dev.baton.spring.security.SpringSecurityCallers;
import dev.baton.spring.web.BatonApiController;
import dev.baton.spring.web.BatonCatalogController;
import dev.baton.spring.web.BatonDeliveredMessagesController;
import dev.baton.spring.web.BatonSessionController;
import dev.baton.spring.web.BatonTokenCallers;
import dev.baton.spring.web.BatonTurnEventsController;
import dev.baton.spring.web.CallerResolver;
import dev.baton.spring.web.SseHeartbeats;
import dev.baton.testkit.db.PostgresTestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
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
                    assertThat(context).hasSingleBean(BatonSessionController.class);
                    assertThat(context).hasSingleBean(BatonTurnEventsController.class);
                    assertThat(context).hasSingleBean(BatonCatalogController.class);
                    assertThat(context).hasSingleBean(BatonDeliveredMessagesController.class);
                    assertThat(context).hasSingleBean(SseHeartbeats.class);
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
        runner().withPropertyValues("baton.api.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(BatonApiController.class);
            assertThat(context).doesNotHaveBean(BatonSessionController.class);
            assertThat(context).doesNotHaveBean(BatonTurnEventsController.class);
        });
    }

    @Test
    void batons_tables_can_live_in_the_apps_own_postgresql_data_source_with_their_own_history() throws Exception {
        PostgresTestDatabase postgres = PostgresTestDatabase.create();
        HikariDataSource appPool = new HikariDataSource();
        appPool.setJdbcUrl(postgres.url());
        try {
            new WebApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class))
                    .withBean(DataSource.class, () -> appPool)
                    .withBean(
                            "helper",
                            AgentDefinition.class,
                            () -> AgentDefinition.of("helper", "Help.", "simulator:any", List.of()))
                    .withPropertyValues("baton.database.use-app-data-source=true")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        Baton baton = context.getBean(Baton.class);
                        Principal alice = Principal.of("acme", "alice", Set.of(Sessions.READ, Sessions.WRITE));
                        String session = baton.sessions()
                                .start(
                                        alice,
                                        baton.agents().all().iterator().next().id(),
                                        null)
                                .id();
                        assertThat(count(appPool, "SELECT count(*) FROM sessions WHERE id = '" + session + "'"))
                                .isEqualTo(1);
                        assertThat(tables(appPool, postgres.schema()))
                                .contains("baton_schema_history")
                                .doesNotContain("flyway_schema_history");

                        // the app's pool outlives Baton, which only borrowed it
                        context.getBean(BatonApp.class).close();
                        assertThat(appPool.isClosed()).isFalse();
                        assertThat(count(appPool, "SELECT 1")).isEqualTo(1);
                    });
        } finally {
            appPool.close();
            postgres.drop();
        }
    }

    private static long count(DataSource pool, String sql) throws Exception {
        try (Connection c = pool.getConnection();
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<String> tables(DataSource pool, String schema) throws Exception {
        List<String> names = new java.util.ArrayList<>();
        try (Connection c = pool.getConnection();
                ResultSet rs = c.createStatement()
                        .executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = '" + schema
                                + "'")) {
            while (rs.next()) names.add(rs.getString(1));
        }
        return names;
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
