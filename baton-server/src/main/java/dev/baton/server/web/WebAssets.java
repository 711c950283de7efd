package dev.baton.server.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The page's files, each read once from the class path: its own under {@code web/}, and the libraries it uses from
 * their WebJars (Maven Central jars that carry an npm package's files), so nothing is ever loaded from another host.
 * A missing file is a packaging bug and fails start-up.
 */
final class WebAssets {

    private static final String HTML = "text/html; charset=utf-8";
    private static final String JS = "text/javascript; charset=utf-8";
    private static final String CSS = "text/css; charset=utf-8";

    /** The page's own files, each served at "/" + its name. */
    private static final Map<String, String> OWN = ownFiles();

    /** @param etag a strong validator, so a browser revalidating (Cache-Control: no-cache) gets a 304 */
    record Asset(byte[] bytes, String contentType, String etag) {}

    private WebAssets() {}

    /** Every file the page may load, by the path it is served at. */
    static Map<String, Asset> load() {
        Map<String, Asset> assets = new LinkedHashMap<>();
        Asset page = own("index.html", HTML);
        assets.put("/", page);
        OWN.forEach((name, type) -> assets.put("/" + name, name.equals("index.html") ? page : own(name, type)));
        assets.put("/vendor/marked.js", vendor("org.webjars.npm", "marked", "lib/marked.umd.js", JS));
        assets.put("/vendor/purify.js", vendor("org.webjars.npm", "dompurify", "dist/purify.min.js", JS));
        assets.put("/vendor/highlight.js", vendor("org.webjars", "highlightjs", "highlight.min.js", JS));
        assets.put("/vendor/highlight.css", vendor("org.webjars", "highlightjs", "styles/github.min.css", CSS));
        assets.put(
                "/vendor/highlight-dark.css", vendor("org.webjars", "highlightjs", "styles/github-dark.min.css", CSS));
        assets.put("/vendor/chart.js", vendor("org.webjars.npm", "chart.js", "dist/chart.umd.min.js", JS));
        return Map.copyOf(assets);
    }

    private static Map<String, String> ownFiles() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("index.html", HTML);
        files.put("app.css", CSS);
        for (String module : new String[] {
            "app",
            "api",
            "errors",
            "markdown",
            "chat",
            "turn",
            "messages",
            "tool-card",
            "sidebar",
            "signin",
            "admin",
            "dom",
            "message-actions",
            "starters",
            "export",
            "theme",
            "deliveries",
            "accounts",
            "slash-commands"
        }) {
            files.put("js/" + module + ".js", JS);
        }
        return files;
    }

    private static Asset own(String name, String contentType) {
        return asset("/web/" + name, contentType);
    }

    /** A file of a WebJar, found by the version its pom.properties names (the one the build resolved). */
    private static Asset vendor(String groupId, String artifactId, String file, String contentType) {
        String pomProperties = "/META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
        Properties props = new Properties();
        try (InputStream in = WebAssets.class.getResourceAsStream(pomProperties)) {
            if (in == null) throw new IllegalStateException("WebJar missing from the class path: " + pomProperties);
            props.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String version = props.getProperty("version");
        return asset("/META-INF/resources/webjars/" + artifactId + "/" + version + "/" + file, contentType);
    }

    private static Asset asset(String resource, String contentType) {
        try (InputStream in = WebAssets.class.getResourceAsStream(resource)) {
            if (in == null)
                throw new IllegalStateException("web page resource missing from the class path: " + resource);
            byte[] bytes = in.readAllBytes();
            return new Asset(bytes, contentType, etag(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String etag(byte[] bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            return "\"" + HexFormat.of().formatHex(digest, 0, 16) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
