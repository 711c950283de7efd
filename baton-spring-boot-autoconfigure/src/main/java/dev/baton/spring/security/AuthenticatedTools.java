package dev.baton.spring.security;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolException;
import dev.baton.core.tool.ToolSource;
import java.util.List;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * A tool source whose tools run with the call's caller as Spring Security's authentication ({@link
 * CallerAuthentication}): a tool runs on a thread of its own, and may resume on another request or instance after an
 * approval, so the request's security context is never at hand; the caller always is. Method security on the app's
 * beans ({@code @PreAuthorize("hasAuthority('loans:write')")}) then sees the same user and permissions as Baton, and
 * its {@code AccessDeniedException} reaches the model as the tool error {@code permission_denied}.
 */
public record AuthenticatedTools(ToolSource delegate) implements ToolSource {

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public List<Tool> tools() {
        return delegate.tools().stream().map(AuthenticatedTools::authenticated).toList();
    }

    @Override
    public boolean admits(String allowListEntry, ToolDefinition tool) {
        return delegate.admits(allowListEntry, tool);
    }

    private static Tool authenticated(Tool tool) {
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return tool.definition();
            }

            @Override
            public java.util.Optional<String> summary(JsonNode arguments, ToolContext context) {
                return tool.summary(arguments, context);
            }

            @Override
            public JsonNode execute(JsonNode arguments, ToolContext context) {
                SecurityContext previous = SecurityContextHolder.getContext();
                SecurityContext current = SecurityContextHolder.createEmptyContext();
                current.setAuthentication(new CallerAuthentication(context.principal()));
                SecurityContextHolder.setContext(current);
                try {
                    return tool.execute(arguments, context);
                } catch (AccessDeniedException e) {
                    // the bean's method security said no: the model hears it, as it would a domain's refusal
                    throw new ToolException("permission_denied", "the user may not do this");
                } finally {
                    SecurityContextHolder.setContext(previous);
                }
            }
        };
    }
}
