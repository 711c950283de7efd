package dev.baton.runtime.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.audit.AuditStore;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AuditTrailsTest {
    private final AuditTrails trails = new AuditTrails(AuditStore.NONE, null);

    @Test
    void a_caller_without_the_audit_permission_is_refused_before_anything_is_read() {
        assertThatThrownBy(() -> trails.sessionAudit(Principal.of("acme", "alice", Set.of()), "s-1"))
                .isInstanceOfSatisfying(
                        RefusalException.class, e -> assertThat(e.refusal()).isInstanceOf(Refusal.Forbidden.class));
    }

    @Test
    void a_session_the_tenant_kept_nothing_of_is_not_found() {
        assertThatThrownBy(() -> trails.sessionAudit(Principal.of("acme", "ada", Set.of(AuditTrails.AUDIT)), "s-1"))
                .isInstanceOfSatisfying(
                        RefusalException.class, e -> assertThat(e.refusal()).isInstanceOf(Refusal.NotFound.class));
    }
}
