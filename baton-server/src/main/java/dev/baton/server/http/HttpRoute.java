package dev.baton.server.http;

import java.util.Objects;

/**
 * One route the server answers: an HTTP method ("GET") and the path template it was registered with
 * ("/v1/sessions/{id}"), as the API document names them.
 */
public record HttpRoute(String method, String path) {
    public HttpRoute {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
    }

    @Override
    public String toString() {
        return method + " " + path;
    }
}
