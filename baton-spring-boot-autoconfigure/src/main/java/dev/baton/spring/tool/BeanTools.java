package dev.baton.spring.tool;

import dev.baton.core.tool.ToolSource;
import dev.baton.runtime.tool.AnnotatedTools;
import dev.baton.runtime.tool.BatonTool;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * The {@link BatonTool} methods of the app's beans, as one tool source. Each tool calls its bean as the app's own code
 * would — through the bean's Spring proxy — so {@code @Transactional}, {@code @PreAuthorize} and any other advice of
 * the bean still apply when the model calls it. A {@code Principal} or {@code ToolContext} parameter is filled with the
 * caller, never by the model.
 *
 * <p>Beans are proxied by subclassing (Spring Boot's default): the annotated methods are read from the bean's own
 * class and called on the proxy. A bean proxied only through its interfaces (JDK proxy) is refused with an explanation.
 */
public final class BeanTools {
    /** The tool source's name, in logs and circuit breakers. */
    public static final String SOURCE_NAME = "spring-beans";

    private BeanTools() {}

    /**
     * The beans of {@code beans} that have {@link BatonTool} methods, by bean name, in definition order. Only their
     * types are looked at first, so beans without tools are not created early; a bean declared by an interface type
     * is found only once it exists (declare tool beans by their class, as {@code @Service} and {@code @Component}
     * do).
     */
    public static Map<String, Object> find(ConfigurableListableBeanFactory beans) {
        Map<String, Object> found = new LinkedHashMap<>();
        for (String name : beans.getBeanDefinitionNames()) {
            BeanDefinition definition = beans.containsBeanDefinition(name) ? beans.getBeanDefinition(name) : null;
            if (definition != null
                    && (definition.isAbstract() || definition.getRole() == BeanDefinition.ROLE_INFRASTRUCTURE))
                continue;
            Class<?> type = beans.getType(name, false);
            if (type == null) continue;
            // a bean known only by an interface (or already a JDK proxy) shows its class once it exists; creating it
            // here could close a cycle through Baton's own beans, so only beans already created are looked into
            boolean interfaceOnly = type.isInterface() || Proxy.isProxyClass(type);
            if (interfaceOnly && !beans.containsSingleton(name)) continue;
            if (!interfaceOnly && !hasToolMethods(ClassUtils.getUserClass(type))) continue;
            Object bean = beans.getBean(name);
            if (interfaceOnly && !hasToolMethods(AopProxyUtils.ultimateTargetClass(bean))) continue;
            if (AopUtils.isJdkDynamicProxy(bean)) {
                throw new IllegalStateException("bean '" + name + "' has @BatonTool methods but is proxied through its"
                        + " interfaces only (a JDK proxy), whose methods carry no @BatonTool: let Spring proxy its"
                        + " class (spring.aop.proxy-target-class=true, Spring Boot's default)");
            }
            refuseTransactional(name, AopProxyUtils.ultimateTargetClass(bean));
            found.put(name, bean);
        }
        return found;
    }

    /**
     * A bean's tool cannot be transactional: its writes go through Spring's transactions, on a connection Spring binds
     * to the thread, which Baton's transaction (its tool-call row and checkpoint) cannot join. Declared so, it would be
     * run again after a crash although its writes may have committed.
     */
    private static void refuseTransactional(String name, Class<?> type) {
        MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<BatonTool>)
                        (Method m) -> AnnotatedElementUtils.findMergedAnnotation(m, BatonTool.class))
                .forEach((method, tool) -> {
                    if (tool.transactional()) {
                        throw new IllegalStateException("bean '" + name + "' method " + method.getName()
                                + " is @BatonTool(transactional = true), which the Spring Boot starter does not offer:"
                                + " the bean's writes commit through Spring's transactions, which Baton's record of"
                                + " the call cannot join. Leave it out (after a crash the call's outcome is reported"
                                + " as unknown), or declare idempotent = true if running it twice does no harm");
                    }
                });
    }

    /** One source with every tool of {@code beans}; empty when there are none. */
    public static Optional<ToolSource> of(Map<String, Object> beans) {
        if (beans.isEmpty()) return Optional.empty();
        List<Object> targets = new ArrayList<>(beans.values());
        return Optional.of(AnnotatedTools.named(SOURCE_NAME, targets.toArray()));
    }

    static boolean hasToolMethods(Class<?> type) {
        return !MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<Boolean>)
                        (Method m) -> AnnotatedElementUtils.hasAnnotation(m, BatonTool.class) ? Boolean.TRUE : null)
                .isEmpty();
    }
}
