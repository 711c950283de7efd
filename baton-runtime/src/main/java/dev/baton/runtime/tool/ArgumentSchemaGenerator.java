package dev.baton.runtime.tool;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaBuilder;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.generator.impl.module.EnumModule;
import com.github.victools.jsonschema.generator.impl.module.FlattenedWrapperModule;
import com.github.victools.jsonschema.module.jackson.JacksonModule;
import java.lang.reflect.Field;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Writes the JSON Schema of a tool method's arguments with victools' generator: one object with a property per
 * argument, and {@code "additionalProperties": false} at every object level so the model cannot invent a field.
 * Draft 2020-12, the core validator's default dialect; no {@code $schema} keyword, as in the built-in tools'
 * schemas (some providers refuse keywords they do not know). A record used more than once (or recursively) is
 * defined once under {@code $defs}; everything else is written inline.
 *
 * <p>One instance serves one registration on one thread: the generator keeps state while it works.
 */
final class ArgumentSchemaGenerator {
    private static final String DEFINITIONS = "$defs";

    /** One property of the arguments object. */
    record Property(String name, Type type, String description, boolean required) {}

    private final SchemaGenerator generator;

    ArgumentSchemaGenerator() {
        SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(
                        SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON)
                .without(Option.SCHEMA_VERSION_INDICATOR)
                // FLATTENED_OPTIONALS would also let an Optional be null: optional here means "may be left out",
                // the same for method parameters and record components, and as the built-in tools' schemas say
                .without(Option.FLATTENED_OPTIONALS)
                .with(optionalAsItsContent())
                .with(Option.FORBIDDEN_ADDITIONAL_PROPERTIES_BY_DEFAULT)
                .with(Option.PLAIN_DEFINITION_KEYS)
                // an enum's values are the texts Jackson reads, whatever @JsonProperty or @JsonValue make of them
                .without(Option.FLATTENED_ENUMS)
                .with(new EnumModule(ArgumentJson::enumText))
                .with(new JacksonModule());
        // a record's components in the order they are declared, as a reader of the record expects
        config.forTypesInGeneral().withPropertySorter((first, second) -> 0);
        config.forFields()
                .withRequiredCheck(field -> !field.isFakeContainerItemScope() && !optional(field))
                .withDescriptionResolver(ArgumentSchemaGenerator::describe);
        this.generator = new SchemaGenerator(config.build());
    }

    /** The schema of the arguments object with these properties, in their order. */
    ObjectNode schema(List<Property> properties) {
        SchemaBuilder builder = generator.buildMultipleSchemaDefinitions();
        List<ObjectNode> schemas = new ArrayList<>(properties.size());
        for (Property property : properties) {
            schemas.add(builder.createSchemaReference(property.type()));
        }
        // fills the nodes handed out above: inline schemas or "$ref"s into the definitions
        ObjectNode definitions = builder.collectDefinitions(DEFINITIONS);

        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("type", "object");
        ObjectNode props = root.putObject("properties");
        ArrayNode required = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < properties.size(); i++) {
            Property property = properties.get(i);
            ObjectNode schema = schemas.get(i);
            if (!property.description().isBlank()) {
                schema.put("description", property.description());
            }
            props.set(property.name(), schema);
            if (property.required()) {
                required.add(property.name());
            }
        }
        if (!required.isEmpty()) {
            root.set("required", required);
        }
        root.put("additionalProperties", false);
        if (!definitions.isEmpty()) {
            root.set(DEFINITIONS, definitions);
        }
        return root;
    }

    private static boolean optional(FieldScope field) {
        Field raw = field.getRawMember();
        return ArgumentTypes.optional(raw, raw.getAnnotatedType(), raw.getType());
    }

    private static String describe(FieldScope field) {
        if (field.isFakeContainerItemScope()) {
            return null;
        }
        Param param = field.getAnnotationConsideringFieldAndGetter(Param.class);
        return param == null || param.description().isBlank() ? null : param.description();
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static FlattenedWrapperModule<?> optionalAsItsContent() {
        return new FlattenedWrapperModule(Optional.class);
    }
}
