package dev.baton.mcp.client.oauth;

import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.Tokens;
import dev.baton.core.auth.Principal;
import dev.baton.mcp.config.McpServerSettings;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connecting a user's account: the authorization request Baton sends the user's browser with ({@link #start}), and
 * the callback it comes back to ({@link #finish}), whose code is exchanged for the tokens stored for that user only.
 */
final class AuthorizationFlow {
    // logged as the accounts, which is what an operator looks for
    private static final Logger log = LoggerFactory.getLogger(UserAccounts.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, McpServerSettings> servers;
    private final URI callback;
    private final SealedAccountTokens storedTokens;
    private final TokenCipher cipher;
    private final Clock clock;
    private final AuthorizationServers authorizationServers;
    private final OAuthClients clients;
    private final TokenEndpoint endpoint;

    /** @param servers the servers with {@code auth: oauth}, by name */
    AuthorizationFlow(
            Map<String, McpServerSettings> servers,
            URI callback,
            SealedAccountTokens storedTokens,
            TokenCipher cipher,
            Clock clock,
            AuthorizationServers authorizationServers,
            OAuthClients clients,
            TokenEndpoint endpoint) {
        this.servers = servers;
        this.callback = callback;
        this.storedTokens = storedTokens;
        this.cipher = cipher;
        this.clock = clock;
        this.authorizationServers = authorizationServers;
        this.clients = clients;
        this.endpoint = endpoint;
    }

    /**
     * {@link UserAccounts#start}: an authorization request whose state carries the whole pending authorization, sealed.
     *
     * @throws AccountFlowException {@code PROVIDER_FAILED} when the server's authorization server cannot be found
     */
    UserAccounts.Started start(Principal caller, McpServerSettings settings, String browserValue) {
        AuthorizationServerMetadata metadata = authorizationServers.of(settings);
        OAuthClients.Client client = clients.of(settings, metadata);
        String browser = browserValue != null && browserValue.length() >= 32 ? browserValue : randomValue();
        CodeVerifier verifier = new CodeVerifier();
        PendingAuthorization pending = new PendingAuthorization(
                caller.tenantId(),
                caller.userId(),
                settings.name(),
                verifier.getValue(),
                PendingAuthorization.hashOf(browser),
                client.id().getValue(),
                clock.instant().plus(UserAccounts.PENDING_FOR));
        AuthorizationRequest.Builder request = new AuthorizationRequest.Builder(ResponseType.CODE, client.id())
                .endpointURI(metadata.getAuthorizationEndpointURI())
                .redirectionURI(callback)
                .state(new State(pending.seal(cipher)))
                .codeChallenge(verifier, CodeChallengeMethod.S256)
                .resource(settings.oauth().resource());
        Scope scope = scope(settings, metadata);
        if (scope != null) request.scope(scope);
        return new UserAccounts.Started(request.build().toURI(), browser);
    }

    /**
     * {@link UserAccounts#finish}: the callback's state opened and checked, the code exchanged for tokens, which are
     * stored for the user the state names.
     *
     * @throws AccountFlowException {@code BAD_STATE}, {@code ISSUER_MISMATCH}, {@code DENIED} or {@code PROVIDER_FAILED}
     */
    UserAccounts.Connected finish(String query, String browserValue) {
        AuthorizationResponse response;
        try {
            response = AuthorizationResponse.parse(URI.create(callback + "?" + (query == null ? "" : query)));
        } catch (ParseException | IllegalArgumentException e) {
            throw new AccountFlowException(AccountFlowException.Kind.BAD_STATE, "not an authorization response");
        }
        if (response.getState() == null)
            throw new AccountFlowException(AccountFlowException.Kind.BAD_STATE, "the callback has no state");
        PendingAuthorization pending;
        try {
            pending = PendingAuthorization.open(response.getState().getValue(), cipher);
        } catch (TokenCipher.SealBroken e) {
            throw new AccountFlowException(AccountFlowException.Kind.BAD_STATE, "the state is not one Baton made");
        }
        if (!pending.expiresAt().isAfter(clock.instant()))
            throw new AccountFlowException(
                    AccountFlowException.Kind.BAD_STATE, "the authorization took too long; start it again");
        if (!pending.startedBy(browserValue))
            throw new AccountFlowException(
                    AccountFlowException.Kind.BAD_STATE, "the authorization was started in another browser session");
        McpServerSettings settings = servers.get(pending.server());
        if (settings == null)
            throw new AccountFlowException(
                    AccountFlowException.Kind.BAD_STATE, "the server of this authorization is no longer configured");
        AuthorizationServerMetadata metadata = authorizationServers.of(settings);
        checkIssuer(response.getIssuer(), metadata);
        if (!response.indicatesSuccess()) {
            var error = response.toErrorResponse().getErrorObject();
            throw new AccountFlowException(
                    AccountFlowException.Kind.DENIED,
                    "the authorization server said " + error.getCode()
                            + (error.getDescription() == null ? "" : ": " + error.getDescription()));
        }
        OAuthClients.Client client = clients.byId(settings, metadata, pending.clientId());
        if (client == null)
            throw new AccountFlowException(
                    AccountFlowException.Kind.BAD_STATE, "the authorization was started for another client");
        AuthorizationCode code = response.toSuccessResponse().getAuthorizationCode();
        if (code == null)
            throw new AccountFlowException(AccountFlowException.Kind.BAD_STATE, "the callback carries no code");
        Tokens tokens = endpoint.exchange(
                settings,
                metadata,
                client,
                new AuthorizationCodeGrant(code, callback, new CodeVerifier(pending.codeVerifier())));
        Instant now = clock.instant();
        AccountTokens own = endpoint.own(tokens, client, null);
        storedTokens.save(pending.tenantId(), pending.userId(), settings.name(), own, now, now);
        log.info(
                "user {} of tenant {} connected their account on MCP server {}",
                pending.userId(),
                pending.tenantId(),
                settings.name());
        return new UserAccounts.Connected(pending.tenantId(), pending.userId(), settings.name());
    }

    /** RFC 9207: the callback's {@code iss} must be the authorization server's; missing only if it does not send one. */
    private static void checkIssuer(Issuer iss, AuthorizationServerMetadata metadata) {
        if (iss == null) {
            if (metadata.supportsAuthorizationResponseIssuerParam())
                throw new AccountFlowException(
                        AccountFlowException.Kind.ISSUER_MISMATCH, "the callback has no iss, and its server sends one");
            return;
        }
        if (!iss.equals(metadata.getIssuer()))
            throw new AccountFlowException(
                    AccountFlowException.Kind.ISSUER_MISMATCH,
                    "the callback came from " + iss + ", not from the authorization server " + metadata.getIssuer());
    }

    private static Scope scope(McpServerSettings settings, AuthorizationServerMetadata metadata) {
        if (!settings.oauth().scopes().isEmpty())
            return new Scope(settings.oauth().scopes().toArray(String[]::new));
        return null;
    }

    private static String randomValue() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
