package dev.baton.server;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import dev.baton.runtime.Baton;
import dev.baton.runtime.admission.IdempotencyKeys;
import dev.baton.runtime.admission.TurnAdmission;
import dev.baton.runtime.approval.ApprovalExpiry;
import dev.baton.runtime.approval.ApprovalGate;
import dev.baton.runtime.approval.Approvals;
import dev.baton.runtime.approval.ConversationalConfirmation;
import dev.baton.runtime.assignment.AssignmentPrompt;
import dev.baton.runtime.assignment.Assignments;
import dev.baton.runtime.audit.AuditTrails;
import dev.baton.runtime.conversation.Conversations;
import dev.baton.runtime.experiment.ExperimentSetup;
import dev.baton.runtime.experiment.ExperimentTurnRecorder;
import dev.baton.runtime.experiment.Experiments;
import dev.baton.runtime.experiment.RollbackJob;
import dev.baton.runtime.experiment.SharedSnapshot;
import dev.baton.runtime.flag.FeatureFlags;
import dev.baton.runtime.session.ConfigCascade;
import dev.baton.runtime.session.ModuleSessionEvents;
import dev.baton.runtime.session.PriorSessions;
import dev.baton.runtime.session.SessionEventBus;
import dev.baton.runtime.session.SessionLifecycle;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.session.tool.StandardToolSource;
import dev.baton.runtime.stream.FollowedTurns;
import dev.baton.runtime.stream.TurnOutcomeCodec;
import dev.baton.runtime.tool.ToolAccess;
import dev.baton.runtime.turn.RunningTurns;
import dev.baton.runtime.turn.TurnDispatcher;
import dev.baton.runtime.usage.UsageReports;
import java.util.List;
import java.util.Set;

/**
 * The module boundaries of DESIGN §2, checked on the compiled classes of every module on the server's class path:
 * the build fails when one is crossed.
 */
@AnalyzeClasses(packages = "dev.baton", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule core_depends_on_no_other_module = noClasses()
            .that()
            .resideInAPackage("dev.baton.core..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "dev.baton.runtime..",
                    "dev.baton.server..",
                    "dev.baton.store..",
                    "dev.baton.providers..",
                    "dev.baton.redis..",
                    "dev.baton.simulator..",
                    "dev.baton.tasks..",
                    "dev.baton.notes..",
                    "dev.baton.learning..",
                    "dev.baton.modules..",
                    "dev.baton.mcp..",
                    "dev.baton.domain..",
                    "dev.baton.app..",
                    "dev.baton.eval..");

    @ArchTest
    static final ArchRule the_runtime_knows_no_http_sql_store_provider_or_redis = noClasses()
            .that()
            .resideInAnyPackage("dev.baton.core..", "dev.baton.runtime..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "dev.baton.server..",
                    "dev.baton.store..",
                    "dev.baton.providers..",
                    "dev.baton.redis..",
                    "dev.baton.mcp..",
                    "dev.baton.domain..",
                    "dev.baton.app..",
                    "io.modelcontextprotocol..",
                    "io.javalin..",
                    "jakarta.servlet..",
                    "org.eclipse.jetty..",
                    "java.sql..",
                    "javax.sql..",
                    "io.lettuce..");

    /**
     * The server, the test kit's HTTP/2 client (test scope only, never in baton.jar), and the OpenAI-compatible model
     * wire's client (Jetty's, in the providers' streaming and openai packages, which the next rule keeps from serving
     * anything).
     */
    @ArchTest
    static final ArchRule only_the_server_knows_http = noClasses()
            .that()
            .resideOutsideOfPackages(
                    "dev.baton.server..",
                    "dev.baton.testkit.http..",
                    "dev.baton.providers.streaming..",
                    "dev.baton.providers.openai..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.javalin..", "jakarta.servlet..", "org.eclipse.jetty..");

    /** The model wire calls providers with Jetty's client; it serves nothing. */
    @ArchTest
    static final ArchRule the_model_wire_only_calls_out = noClasses()
            .that()
            .resideInAnyPackage("dev.baton.providers.streaming..", "dev.baton.providers.openai..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "io.javalin..", "jakarta.servlet..", "org.eclipse.jetty.server..", "org.eclipse.jetty.ee10..");

    /** The API's wire is door-neutral: both the server (Javalin) and the Spring Boot starter answer with it. */
    @ArchTest
    static final ArchRule the_wire_knows_no_door = noClasses()
            .that()
            .resideInAPackage("dev.baton.wire..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "dev.baton.server..",
                    "dev.baton.spring..",
                    "org.springframework..",
                    "io.javalin..",
                    "jakarta.servlet..",
                    "org.eclipse.jetty..");

    /** The JDBC store, and the domains' own repositories in their {@code store} packages. */
    @ArchTest
    static final ArchRule only_store_packages_know_sql = noClasses()
            .that()
            .resideOutsideOfPackages("dev.baton.store..", "dev.baton.*.store..", "dev.baton.testkit..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("java.sql..", "com.zaxxer..", "org.flywaydb..");

    /**
     * A connection pool is SQL's too; the assembly may only hand a host's pool over to the store (a Spring Boot app's
     * DataSource), never use it.
     */
    @ArchTest
    static final ArchRule only_store_packages_and_the_assembly_know_data_sources = noClasses()
            .that()
            .resideOutsideOfPackages("dev.baton.store..", "dev.baton.*.store..", "dev.baton.testkit..", "dev.baton.app")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("javax.sql..");

    @ArchTest
    static final ArchRule only_providers_know_vendor_wire_formats = noClasses()
            .that()
            .resideOutsideOfPackage("dev.baton.providers..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.langchain4j..");

    @ArchTest
    static final ArchRule only_the_redis_module_knows_redis = noClasses()
            .that()
            .resideOutsideOfPackage("dev.baton.redis..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.lettuce..", "io.github.bucket4j.redis..");

    @ArchTest
    static final ArchRule only_the_mcp_module_knows_mcp = noClasses()
            .that()
            .resideOutsideOfPackage("dev.baton.mcp..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.modelcontextprotocol..");

    /** The eval harness runs turns through the assembly and the runtime, never through a front door. */
    @ArchTest
    static final ArchRule the_eval_harness_knows_no_door = noClasses()
            .that()
            .resideInAPackage("dev.baton.eval..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.baton.server..", "io.javalin..", "jakarta.servlet..", "org.eclipse.jetty..");

    /** The assembly, the Domain SPI and the domains know no front door: a Baton runs without one. */
    @ArchTest
    static final ArchRule the_assembly_and_the_domains_know_no_door = noClasses()
            .that()
            .resideInAnyPackage(
                    "dev.baton.app..",
                    "dev.baton.domain..",
                    "dev.baton.tasks..",
                    "dev.baton.notes..",
                    "dev.baton.learning..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.baton.server..", "dev.baton.eval..");

    /**
     * Domains plug in through the SPI: the assembly, the harness and the doors never name a built-in domain (design
     * 002's own API translates onto the learning agent's memory service, which is that design's door).
     */
    @ArchTest
    static final ArchRule nothing_outside_a_domain_lists_the_domains = noClasses()
            .that()
            .resideInAnyPackage("dev.baton.app..", "dev.baton.domain..", "dev.baton.eval..", "dev.baton.server..")
            .and()
            .resideOutsideOfPackage("dev.baton.server.compat..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.baton.tasks..", "dev.baton.notes..", "dev.baton.learning..");

    /** A domain is plugged in, it does not plug itself into the assembly or into another domain. */
    @ArchTest
    static final ArchRule a_domain_knows_neither_the_assembly_nor_another_domain = noClasses()
            .that()
            .resideInAnyPackage("dev.baton.tasks..", "dev.baton.notes..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.baton.app..", "dev.baton.learning..");

    /**
     * The runtime's services, which a {@link Baton} built by its builder holds and hands out: a front door, the
     * assembly or a user reaches them through the {@code Baton}, never by calling a constructor.
     */
    static final Set<Class<?>> RUNTIME_SERVICES = Set.of(
            Sessions.class,
            SessionLifecycle.class,
            SessionEventBus.class,
            Conversations.class,
            TurnAdmission.class,
            IdempotencyKeys.class,
            Approvals.class,
            ConversationalConfirmation.class,
            ToolAccess.class,
            Experiments.class,
            FeatureFlags.class,
            UsageReports.class,
            Assignments.class,
            TurnDispatcher.class,
            RunningTurns.class,
            FollowedTurns.class,
            AuditTrails.class);

    /**
     * Public only so that {@code BatonBuilder} (package {@code dev.baton.runtime}) can wire them across the runtime's
     * packages: nothing outside the runtime uses them, and nothing should start to. (Those used in their own package
     * only are package-private instead: {@code admission.RateLimiter}.)
     */
    static final List<Class<?>> RUNTIME_INTERNALS = List.of(
            TurnAdmission.class,
            IdempotencyKeys.class,
            TurnDispatcher.class,
            SessionLifecycle.class,
            ConfigCascade.class,
            ModuleSessionEvents.class,
            PriorSessions.class,
            StandardToolSource.class,
            ApprovalGate.class,
            ApprovalExpiry.class,
            AssignmentPrompt.class,
            ExperimentSetup.class,
            ExperimentTurnRecorder.class,
            RollbackJob.class,
            SharedSnapshot.class,
            TurnOutcomeCodec.class);

    /**
     * Doors reach the runtime's services through {@link Baton}. The test kit is exempt: its store contract suites build
     * {@code Experiments} and {@code FeatureFlags} over the store under test, as an adapter author's test would.
     */
    @ArchTest
    static final ArchRule the_runtime_services_are_built_only_by_the_runtime = noClasses()
            .that()
            .resideOutsideOfPackages("dev.baton.runtime..", "dev.baton.testkit..")
            .should()
            .callConstructorWhere(target(owner(DescribedPredicate.describe(
                    "a runtime service "
                            + RUNTIME_SERVICES.stream()
                                    .map(Class::getSimpleName)
                                    .sorted()
                                    .toList(),
                    (JavaClass c) -> RUNTIME_SERVICES.stream().anyMatch(c::isEquivalentTo)))))
            .because("a front door or a user reaches a runtime service through Baton (built by BatonBuilder)");

    /** The runtime's wiring stays the runtime's: see {@link #RUNTIME_INTERNALS}. */
    @ArchTest
    static final ArchRule the_runtime_internals_are_used_only_inside_the_runtime = noClasses()
            .that()
            .resideOutsideOfPackage("dev.baton.runtime..")
            .should()
            .dependOnClassesThat()
            .belongToAnyOf(RUNTIME_INTERNALS.toArray(Class<?>[]::new))
            .because("they exist only so that BatonBuilder can wire the runtime");
}
