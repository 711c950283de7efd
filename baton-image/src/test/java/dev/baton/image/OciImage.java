package dev.baton.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The image as Jib wrote it (an OCI image layout in a tarball), unpacked by the system's {@code tar}: its manifest, its
 * configuration, and its layers applied one over the other into a root file system, as a container runtime does.
 *
 * @param config the image configuration's {@code config} object (User, Entrypoint, Cmd, Env, ExposedPorts, ...)
 * @param layers the layers' blobs, base first
 * @param root the layers unpacked in order
 */
record OciImage(JsonNode config, List<Path> layers, Path root) {
    private static final ObjectMapper JSON = new ObjectMapper();

    OciImage {
        layers = List.copyOf(layers);
    }

    static OciImage unpack(Path tarball, Path into) throws IOException, InterruptedException {
        Path layout = Files.createDirectories(into.resolve("layout"));
        Commands.run(List.of("tar", "-xf", tarball.toString(), "-C", layout.toString()));
        JsonNode index = JSON.readTree(layout.resolve("index.json").toFile());
        JsonNode manifest =
                JSON.readTree(blob(layout, index.path("manifests").get(0)).toFile());
        JsonNode imageConfig =
                JSON.readTree(blob(layout, manifest.path("config")).toFile());
        Path root = Files.createDirectories(into.resolve("root"));
        List<Path> layers = new ArrayList<>();
        for (JsonNode layer : manifest.path("layers")) {
            Path blob = blob(layout, layer);
            layers.add(blob);
            // -p keeps each entry's mode as the image says (the user's folders are 777, the runtime's programs 755)
            Commands.run(List.of("tar", "-xzpf", blob.toString(), "-C", root.toString()));
        }
        return new OciImage(imageConfig.path("config"), layers, root);
    }

    /** The value of {@code name} in the image's environment, or null. */
    String env(String name) {
        for (JsonNode entry : config.path("Env")) {
            String e = entry.asText();
            if (e.startsWith(name + "=")) return e.substring(name.length() + 1);
        }
        return null;
    }

    List<String> entrypoint() {
        return strings(config.path("Entrypoint"));
    }

    List<String> cmd() {
        return strings(config.path("Cmd"));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static Path blob(Path layout, JsonNode descriptor) {
        String[] digest = descriptor.path("digest").asText().split(":", 2);
        return layout.resolve("blobs").resolve(digest[0]).resolve(digest[1]);
    }
}
