package dev.baton.modules.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.HookResult;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.ModuleDescriptor;
import dev.baton.core.id.CallKeys;
import dev.baton.core.trace.TraceContextHeaders;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * The {@code webhook} module: posts the hook context as JSON to a URL fixed in configuration, signed with
 * HMAC-SHA256 ({@link WebhookSigner}), and applies the {@link HookResult} the endpoint answers with — so a team
 * can write a module in any language. The wire format is documented in docs/modules.md.
 *
 * <p>A non-2xx status, a malformed answer, a refused connection or a timeout is a module failure: the pipeline
 * then skips the module (fail open) or, with {@code failClosed}, blocks the turn. Redirects are not followed: the
 * endpoint is exactly the configured one.
 */
public final class WebhookModule implements Module {

    /** The id agents name the module by. */
    public static final String ID = "webhook";

    /** The header carrying the call's idempotency key ({@link CallKeys#hookCall}). */
    public static final String IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

    /** Answers larger than this are refused. */
    static final int MAX_REPLY_BYTES = 256 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ModuleDescriptor descriptor;
    private final URI url;
    private final WebhookSigner signer;
    private final Duration timeout;
    private final Clock clock;
    private final HttpClient http;

    /**
     * @param url the endpoint; only ever this one
     * @param timeout how long the HTTP call may take (connect and answer)
     * @param clock the time put in {@value WebhookSigner#TIMESTAMP_HEADER}
     */
    public WebhookModule(ModuleDescriptor descriptor, URI url, String secret, Duration timeout, Clock clock) {
        this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
        this.url = Objects.requireNonNull(url, "url");
        this.signer = new WebhookSigner(secret);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(timeout)
                .build();
    }

    @Override
    public ModuleDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public HookResult handle(HookContext context) {
        byte[] body = body(context);
        long timestamp = clock.instant().getEpochSecond();
        HttpRequest.Builder builder = HttpRequest.newBuilder(url)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("User-Agent", "baton-webhook/" + WebhookPayload.VERSION)
                .header("X-Baton-Hook", context.request().hook().wireName())
                .header("X-Request-ID", context.request().requestId())
                .header(IDEMPOTENCY_KEY_HEADER, idempotencyKey(context))
                .header(WebhookSigner.TIMESTAMP_HEADER, Long.toString(timestamp))
                .header(WebhookSigner.SIGNATURE_HEADER, signer.sign(timestamp, body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        // the turn's trace continues at the webhook
        TraceContextHeaders.inject(builder::setHeader);
        HttpRequest request = builder.build();
        HttpResponse<InputStream> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new WebhookFailure(
                    "webhook " + url + " unreachable: " + e.getClass().getSimpleName(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WebhookFailure("webhook call to " + url + " interrupted", e);
        }
        try (InputStream in = response.body()) {
            if (response.statusCode() / 100 != 2) {
                throw new WebhookFailure("webhook " + url + " answered HTTP " + response.statusCode(), null);
            }
            byte[] reply = in.readNBytes(MAX_REPLY_BYTES + 1);
            if (reply.length > MAX_REPLY_BYTES) {
                throw new WebhookFailure("webhook " + url + " answered more than " + MAX_REPLY_BYTES + " bytes", null);
            }
            return WebhookReply.parse(reply.length == 0 || isBlank(reply) ? null : JSON.readTree(reply));
        } catch (IOException e) {
            throw new WebhookFailure("webhook " + url + " answered unreadable JSON", e);
        }
    }

    /**
     * The same for every call of this module at this hook for this request, also when an instance that took a turn
     * over calls the hook again after the first instance died during the call.
     */
    private String idempotencyKey(HookContext context) {
        return CallKeys.hookCall(
                context.request().requestId(),
                context.session().id(),
                context.request().hook().wireName(),
                descriptor.id());
    }

    private static byte[] body(HookContext context) {
        try {
            return JSON.writeValueAsBytes(WebhookPayload.of(context));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (!Character.isWhitespace(b)) {
                return false;
            }
        }
        return true;
    }

    /** The webhook could not be called or gave no usable answer; the module's failure policy applies. */
    static final class WebhookFailure extends RuntimeException {
        WebhookFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
