package dev.baton.spring.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;

/**
 * Answers a request Spring Security turned away for want of a valid bearer token as {@code baton serve} does: 401,
 * {@code WWW-Authenticate: Bearer}, and {@code {"error": {"code": "unauthorized", ...}}}. Give it to the resource
 * server and to exception handling for Baton's paths:
 *
 * <pre>{@code
 * http.oauth2ResourceServer(o -> o.jwt(Customizer.withDefaults())
 *         .authenticationEntryPoint(new BatonAuthenticationEntryPoint()));
 * }</pre>
 */
public final class BatonAuthenticationEntryPoint implements AuthenticationEntryPoint {

    @Override
    public void commence(
            HttpServletRequest request, HttpServletResponse response, AuthenticationException authException)
            throws IOException {
        String requestId = request.getHeader("X-Request-ID");
        String safeId = requestId != null && requestId.matches("[A-Za-z0-9._:\\-]{1,128}") ? requestId : null;
        String message = request.getHeader("Authorization") == null ? "missing bearer token" : "invalid token";
        response.setStatus(401);
        response.setHeader("WWW-Authenticate", "Bearer");
        response.setContentType("application/json");
        String body = "{\"error\":{\"code\":\"unauthorized\",\"message\":\"" + message + "\",\"requestId\":"
                + (safeId == null ? "null" : "\"" + safeId + "\"") + "}}";
        response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    }
}
