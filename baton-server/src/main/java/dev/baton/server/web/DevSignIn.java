package dev.baton.server.web;

import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.TokenMinter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * "Continue as a development user": the page may get a token for the user {@value #USER} without one being pasted,
 * but only on a server that generated its own JWT secret for this run ({@code baton serve} with no secret and no
 * JWKS configured), whose tokens nobody else can verify or mint anyway. A server with a real secret or an identity
 * provider never offers it.
 *
 * <p>Even then only a browser on the serving machine gets one: the request must come from a loopback address and
 * name a loopback host, so neither another machine on the network (the server binds 0.0.0.0 by default) nor a web
 * page that rebinds its own host name to 127.0.0.1 can sign in as the development user.
 */
public final class DevSignIn {

    /** The same user {@code baton serve} prints a token for, so the page and {@code ./baton chat} share history. */
    static final String USER = "demo";
    /** Chat with the built-in agents and see the admin views (the default roles; a custom roles map may differ). */
    static final List<String> ROLES = List.of("student", "admin");

    static final Duration LIFETIME = Duration.ofHours(12);

    private static final Pattern IPV4_LOOPBACK = Pattern.compile("127(?:\\.\\d{1,3}){3}");

    private final TokenMinter minter;
    private final Clock clock;

    private DevSignIn(TokenMinter minter, Clock clock) {
        this.minter = minter;
        this.clock = clock;
    }

    /** Not offered: tokens come from a configured secret or an identity provider. */
    public static DevSignIn off() {
        return new DevSignIn(null, Clock.systemUTC());
    }

    /** Offered, minting with the secret this run generated for itself. */
    public static DevSignIn withGeneratedSecret(JwtSecret generated, Clock clock) {
        return new DevSignIn(new TokenMinter(generated), clock);
    }

    boolean offered() {
        return minter != null;
    }

    /**
     * Why this request may not sign in as the development user; empty when it may.
     *
     * @param remoteAddress the peer's IP address
     * @param hostHeader the Host header as sent, port included
     */
    Optional<String> refusal(String remoteAddress, String hostHeader) {
        if (!offered()) {
            return Optional.of("this server verifies tokens with a configured secret or identity provider, so it "
                    + "cannot sign anyone in by itself: sign in with a token (./baton token, or your administrator)");
        }
        if (!loopbackAddress(remoteAddress) || !loopbackHost(hostHeader)) {
            return Optional.of("development sign-in works only in a browser on the machine running Baton: open "
                    + "http://localhost:<port>/ there, or paste the token ./baton serve printed");
        }
        return Optional.empty();
    }

    /** A token for the development user; only after {@link #refusal} came back empty. */
    Token mint() {
        if (!offered()) throw new IllegalStateException("development sign-in is off");
        Instant now = clock.instant();
        String jwt = minter.mint(
                new TokenMinter.Claims(USER, "Development user", null, ROLES, null, List.of()), now, LIFETIME);
        return new Token(jwt, now.plus(LIFETIME));
    }

    record Token(String jwt, Instant expiresAt) {}

    private static boolean loopbackAddress(String address) {
        if (address == null || address.isBlank()) return false;
        String a =
                address.startsWith("[") && address.endsWith("]") ? address.substring(1, address.length() - 1) : address;
        // a literal: getByName parses it without asking DNS; anything that is not one is refused before that
        if (!IPV4_LOOPBACK.matcher(a).matches() && !a.contains(":")) return false;
        try {
            return InetAddress.getByName(a).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean loopbackHost(String hostHeader) {
        if (hostHeader == null) return false;
        String h = hostHeader.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end > 0 && loopbackAddress(h.substring(1, end));
        }
        int colon = h.indexOf(':');
        if (colon >= 0) h = h.substring(0, colon);
        return h.equals("localhost") || IPV4_LOOPBACK.matcher(h).matches();
    }
}
