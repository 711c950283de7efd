package dev.baton.server.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The OpenAPI document as a test reads it: its operations, its examples with the schemas they illustrate, its local
 * references, and validation of JSON against its schemas (JSON Schema 2020-12, the dialect of OpenAPI 3.1).
 */
final class OpenApiDocument {
    /** An operation the server registers only in some configurations says so with this extension. */
    static final String CONDITIONAL = "x-baton-registered-when";

    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");

    private final JsonNode tree;
    // nothing in the document may make the validator fetch a URL
    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaLoader(loader -> loader.fetchRemoteResources(false)));

    OpenApiDocument(JsonNode tree) {
        this.tree = tree;
    }

    JsonNode tree() {
        return tree;
    }

    /** The node at a JSON pointer ("/components/schemas/Error"); missing when there is none. */
    JsonNode at(String pointer) {
        return tree.at(pointer);
    }

    /** The JSON pointer of an operation's documented JSON answer schema. */
    static String responseSchema(String path, String method, String status) {
        return "/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method + "/responses/" + status
                + "/content/application~1json/schema";
    }

    interface OperationVisitor {
        void visit(String path, String method, JsonNode operation);
    }

    void forEachOperation(OperationVisitor visitor) {
        tree.get("paths")
                .properties()
                .forEach(path -> path.getValue().properties().forEach(op -> {
                    if (METHODS.contains(op.getKey())) visitor.visit(path.getKey(), op.getKey(), op.getValue());
                }));
    }

    /** "METHOD /path" of every documented operation; with {@code requiredOnly}, not those registered conditionally. */
    Set<String> routes(boolean requiredOnly) {
        Set<String> routes = new TreeSet<>();
        forEachOperation((path, method, operation) -> {
            if (!requiredOnly || !operation.has(CONDITIONAL)) routes.add(method.toUpperCase() + " " + path);
        });
        return routes;
    }

    interface ExampleVisitor {
        void visit(String where, JsonNode schema, JsonNode example);
    }

    /**
     * Every example of the document with the schema it illustrates: a media type's {@code example} and
     * {@code examples.*.value} against its {@code schema}, and a component schema's own {@code examples}.
     */
    void forEachExample(ExampleVisitor visitor) {
        forEachExample(tree, "", visitor);
    }

    private static void forEachExample(JsonNode node, String where, ExampleVisitor visitor) {
        if (node.isObject()) {
            if (node.has("schema") && node.get("schema").isObject()) {
                if (node.has("example")) visitor.visit(where + "/example", node.get("schema"), node.get("example"));
                if (node.path("examples").isObject())
                    node.get("examples").properties().forEach(e -> {
                        JsonNode value = e.getValue().get("value");
                        if (value != null) visitor.visit(where + "/examples/" + e.getKey(), node.get("schema"), value);
                    });
            }
            boolean isSchema = where.startsWith("/components/schemas/")
                    && where.chars().filter(c -> c == '/').count() == 3;
            if (isSchema && node.path("examples").isArray()) {
                int i = 0;
                for (JsonNode example : node.get("examples")) visitor.visit(where + "/examples/" + i++, node, example);
            }
            node.properties().forEach(field -> forEachExample(field.getValue(), where + "/" + field.getKey(), visitor));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) forEachExample(node.get(i), where + "/" + i, visitor);
        }
    }

    /** The node, or what its {@code $ref} (a local JSON pointer) points at. */
    JsonNode resolve(JsonNode node) {
        JsonNode ref = node.get("$ref");
        return ref == null ? node : resolve(tree.at(ref.asText().substring(1)));
    }

    /**
     * What is wrong with {@code json} for {@code schema}, validated as a JSON Schema document whose root also holds
     * the document's components, so that its references ({@code #/components/schemas/...}) resolve as they do in the
     * document; empty when it matches.
     */
    List<Error> validate(JsonNode schema, String json) {
        ObjectNode root = ApiClient.JSON.createObjectNode();
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        root.set("components", tree.get("components"));
        root.putArray("allOf").add(schema);
        return registry.getSchema(root.toString(), InputFormat.JSON).validate(json, InputFormat.JSON);
    }
}
