package dev.baton.server.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The errors Jetty answers by itself, before a request reaches Baton's routes (a control character in a header, a
 * malformed request line, headers too large): the same JSON error body as every other error, never Jetty's HTML page.
 * The code comes from {@link ErrorResponses#codeOf(int)}, so statuses and codes stay decided in one place.
 */
final class JsonErrorHandler extends ErrorHandler {

    @Override
    protected void generateResponse(
            Request request, Response response, int code, String message, Throwable cause, Callback callback)
            throws IOException {
        String requestId = RequestIds.accept(request.getHeaders().get(RequestIds.HEADER));
        response.getHeaders().put(RequestIds.HEADER, requestId);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        byte[] body = ErrorResponses.body(ErrorResponses.codeOf(code), describe(code, message), requestId)
                .getBytes(StandardCharsets.UTF_8);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /** A bad request seen while parsing, before any request object exists. */
    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(new HttpField(HttpHeader.CONTENT_TYPE, "application/json"));
        return ByteBuffer.wrap(ErrorResponses.body(ErrorResponses.codeOf(status), describe(status, reason), null)
                .getBytes(StandardCharsets.UTF_8));
    }

    private static String describe(int status, String reason) {
        String what = switch (status) {
            case 400 -> "malformed HTTP request";
            case 414 -> "request URI too long";
            case 431 -> "request headers too large";
            default -> "HTTP " + status;
        };
        // Jetty's reason says what was wrong (e.g. "Illegal character"); never a stack trace
        return reason == null || reason.isBlank() ? what : what + ": " + reason;
    }
}
