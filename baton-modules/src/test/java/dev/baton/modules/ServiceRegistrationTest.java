package dev.baton.modules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.hook.ModuleFactory;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class ServiceRegistrationTest {

    @Test
    void the_built_in_modules_are_found_by_the_service_loader() {
        assertThat(ServiceLoader.load(ModuleFactory.class).stream()
                        .map(p -> p.get().id()))
                .contains("pii-redaction", "topic-guard", "webhook");
    }
}
