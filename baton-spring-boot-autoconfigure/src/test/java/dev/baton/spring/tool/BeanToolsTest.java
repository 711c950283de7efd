package dev.baton.spring.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.turn.Cancellation;
import dev.baton.runtime.tool.BatonTool;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.context.support.GenericApplicationContext;

class BeanToolsTest {

    public interface Greeting {
        String greet(Principal caller, String name);
    }

    public static class Greeter implements Greeting {
        @Override
        @BatonTool(name = "greet", description = "Greet someone as the caller.")
        public String greet(Principal caller, String name) {
            return caller.userId() + " greets " + name;
        }
    }

    public static class Ledger {
        @BatonTool(name = "post_entry", description = "Post an entry.", transactional = true)
        public String post(String entry) {
            return entry;
        }
    }

    public static class Plain {
        public String nothing() {
            return "";
        }
    }

    private final List<String> advised = new ArrayList<>();

    private Object proxied(boolean byClass) {
        ProxyFactory factory = new ProxyFactory(new Greeter());
        factory.setProxyTargetClass(byClass);
        if (!byClass) factory.addInterface(Greeting.class);
        factory.addAdvice((MethodInterceptor) invocation -> {
            advised.add(invocation.getMethod().getName());
            return invocation.proceed();
        });
        return factory.getProxy();
    }

    @Test
    void a_beans_tool_runs_through_its_proxy_with_the_caller_injected() throws Exception {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.registerBean("greeter", Greeter.class, () -> (Greeter) proxied(true));
            context.registerBean("plain", Plain.class, Plain::new);
            context.refresh();

            var beans = BeanTools.find(context.getBeanFactory());
            assertThat(beans).containsOnlyKeys("greeter");
            ToolSource source = BeanTools.of(beans).orElseThrow();
            Tool greet = source.tools().getFirst();

            assertThat(greet.definition().parametersSchema().toString())
                    .contains("name")
                    .doesNotContain("caller");
            JsonNode result = greet.execute(
                    new ObjectMapper().readTree("{\"name\":\"Bob\"}"),
                    new ToolContext(
                            Principal.of("acme", "alice", Set.of()),
                            "s1",
                            Instant.now().plusSeconds(5),
                            new Cancellation()));
            assertThat(result.asText()).isEqualTo("alice greets Bob");
            assertThat(advised).containsExactly("greet");
        }
    }

    @Test
    void a_bean_proxied_through_its_interfaces_only_is_refused_with_the_fix() {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.registerBean("greeter", Greeter.class, () -> (Greeter) new Greeter());
            context.registerBean("jdkGreeter", Greeting.class, () -> (Greeting) proxied(false));
            context.refresh();

            assertThatThrownBy(() -> BeanTools.find(context.getBeanFactory()))
                    .hasMessageContaining("jdkGreeter")
                    .hasMessageContaining("spring.aop.proxy-target-class");
        }
    }

    @Test
    void a_transactional_bean_tool_is_refused_its_writes_cannot_commit_with_batons_record() {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.registerBean("ledger", Ledger.class, Ledger::new);
            context.refresh();

            assertThatThrownBy(() -> BeanTools.find(context.getBeanFactory()))
                    .hasMessageContaining("ledger")
                    .hasMessageContaining("transactional = true")
                    .hasMessageContaining("Spring's transactions");
        }
    }

    @Test
    void no_tool_beans_give_no_source() {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.registerBean("plain", Plain.class, Plain::new);
            context.refresh();

            assertThat(BeanTools.of(BeanTools.find(context.getBeanFactory()))).isEmpty();
        }
    }
}
