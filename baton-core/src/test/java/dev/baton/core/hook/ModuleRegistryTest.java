package dev.baton.core.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.testing.TestTools;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ModuleRegistryTest {

    /** A factory whose modules echo their config's "name" in their guidance. */
    static final ModuleFactory NAMED = new ModuleFactory() {
        @Override
        public String id() {
            return "named";
        }

        @Override
        public Module create(JsonNode config) {
            String name = config.path("name").asText("default");
            return new TestModules.Lambda(
                    new ModuleDescriptor("named", 50, null, false, Set.of(Hook.BEFORE_AI), null),
                    c -> HookResult.guidance(name));
        }
    };

    static final ModuleFactory AUDITOR = new ModuleFactory() {
        @Override
        public String id() {
            return "auditor";
        }

        @Override
        public Module create(JsonNode config) {
            return TestModules.module("auditor", 95, Set.of(Hook.ON_MESSAGE), c -> HookResult.proceed());
        }
    };

    /** The agent as the agent loader reads it: its {@code modules} list becomes its module entries. */
    static AgentDefinition agent(String id, String definitionYaml) {
        return AgentDefinition.of(id, "prompt", "simulator:default", List.of())
                .withModules(ModuleEntry.parseList(yaml(definitionYaml).path("modules"), "agent " + id));
    }

    static JsonNode yaml(String json) {
        return TestTools.json(json);
    }

    @Test
    void factories_registered_through_service_loader_are_found() {
        ModuleRegistry registry =
                ModuleRegistry.load(MissingNode.getInstance(), getClass().getClassLoader(), List.of(NAMED));

        assertThat(registry.ids()).contains("test-guidance", "named");
        List<Module> modules = registry.modulesFor(HookContexts.agent(agent("a", """
                {"modules": [{"id": "test-guidance", "config": {"text": "Answer in French."}}]}
                """)));
        assertThat(modules)
                .singleElement()
                .satisfies(m -> assertThat(m.handle(TestModules.turn("hi")))
                        .isEqualTo(HookResult.guidance("Answer in French.")));
    }

    @Test
    void org_defaults_run_for_every_agent_and_an_agent_entry_overrides_or_disables_them() {
        ModuleRegistry registry = ModuleRegistry.of(List.of(NAMED, AUDITOR), yaml("""
                {"defaults": [{"id": "named", "config": {"name": "org"}}, "auditor"]}
                """));

        List<Module> plain = registry.modulesFor(HookContexts.agent(agent("plain", "{}")));
        List<Module> custom = registry.modulesFor(HookContexts.agent(agent("custom", """
                {"modules": [
                  {"id": "named", "config": {"name": "agent"}, "priority": 7, "timeout": "250ms", "failClosed": true},
                  {"id": "auditor", "enabled": false}
                ]}
                """)));

        assertThat(plain).extracting(m -> m.descriptor().id()).containsExactly("named", "auditor");
        assertThat(plain.getFirst().handle(TestModules.turn("hi"))).isEqualTo(HookResult.guidance("org"));
        assertThat(custom).singleElement().satisfies(m -> {
            assertThat(m.handle(TestModules.turn("hi"))).isEqualTo(HookResult.guidance("agent"));
            assertThat(m.descriptor().priority()).isEqualTo(7);
            assertThat(m.descriptor().timeout()).isEqualTo(Duration.ofMillis(250));
            assertThat(m.descriptor().failClosed()).isTrue();
        });
    }

    @Test
    void an_agent_naming_an_unknown_module_fails_validation_naming_both() {
        ModuleRegistry registry = ModuleRegistry.of(List.of(NAMED), MissingNode.getInstance());

        assertThatThrownBy(() -> registry.validate(List.of(agent("tutor", "{\"modules\": [\"nonexistent\"]}"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tutor")
                .hasMessageContaining("nonexistent");
    }

    @Test
    void invalid_module_config_fails_validation() {
        ModuleRegistry registry =
                ModuleRegistry.load(MissingNode.getInstance(), getClass().getClassLoader(), List.of());

        assertThatThrownBy(() -> registry.validate(List.of(agent("tutor", "{\"modules\": [\"test-guidance\"]}"))))
                .hasMessageContaining("config.text");
        assertThatThrownBy(() -> registry.validate(
                        List.of(agent("tutor", "{\"modules\": [{\"id\": \"named\", \"priority\": 0}]}"))))
                .hasMessageContaining("priority");
    }

    @Test
    void an_entry_timeout_is_a_duration_with_a_unit_and_the_old_millisecond_key_is_refused() {
        ModuleRegistry registry = ModuleRegistry.of(List.of(NAMED), MissingNode.getInstance());

        assertThatThrownBy(() -> registry.validate(
                        List.of(agent("tutor", "{\"modules\": [{\"id\": \"named\", \"timeout\": 500}]}"))))
                .hasMessageEndingWith("module named: 'timeout: 500' needs a unit, e.g. 500s or 250ms");
        assertThatThrownBy(() -> registry.validate(
                        List.of(agent("tutor", "{\"modules\": [{\"id\": \"named\", \"timeout\": \"0s\"}]}"))))
                .hasMessageEndingWith("module named: timeout must be longer than zero");
        assertThatThrownBy(() -> registry.validate(
                        List.of(agent("tutor", "{\"modules\": [{\"id\": \"named\", \"timeoutMs\": 500}]}"))))
                .hasMessageEndingWith("module named: timeoutMs is now timeout, with a unit: timeout: 500ms");
    }

    @Test
    void the_same_configuration_gets_the_same_module_instances() {
        ModuleRegistry registry = ModuleRegistry.of(List.of(NAMED), MissingNode.getInstance());
        AgentDefinition a = agent("a", "{\"modules\": [\"named\"]}");

        assertThat(registry.modulesFor(HookContexts.agent(a)).getFirst())
                .isSameAs(registry.modulesFor(HookContexts.agent(a)).getFirst());
        assertThat(TestTools.agent(List.of(), null).modules()).isEmpty();
    }
}
