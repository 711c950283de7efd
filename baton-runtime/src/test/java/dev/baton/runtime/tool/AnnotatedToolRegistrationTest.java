package dev.baton.runtime.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.baton.core.auth.Principal;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnnotatedToolRegistrationTest {

    static final class TwoNamedAlike {
        @BatonTool(name = "search", description = "Searches notes")
        public void searchNotes(String query) {}

        @BatonTool(name = "search", description = "Searches tasks")
        public void searchTasks(String query) {}
    }

    static final class BadName {
        @BatonTool(name = "add note", description = "Adds a note")
        public void add(String text) {}
    }

    static final class BlankDescription {
        @BatonTool(description = " ")
        public void add(String text) {}
    }

    static final class NotPublic {
        @BatonTool(description = "Adds a note")
        void add(String text) {}
    }

    static final class MapArgument {
        @BatonTool(description = "Sets fields")
        public void set(Map<String, String> fields) {}
    }

    static final class PlainClassArgument {
        static final class Settings {
            public String colour;
        }

        @BatonTool(description = "Applies settings")
        public void apply(Settings settings) {}
    }

    record Filter(String text, Object anything) {}

    static final class NestedUnsupported {
        @BatonTool(description = "Filters")
        public void filter(Filter filter) {}
    }

    static final class RawList {
        @SuppressWarnings("rawtypes")
        @BatonTool(description = "Tags")
        public void tag(List tags) {}
    }

    static final class OptionalPrimitive {
        @BatonTool(description = "Lists notes")
        public void list(@Param(required = false) int limit) {}
    }

    static final class BadTimeout {
        @BatonTool(description = "Waits", timeout = "soon")
        public void waitABit() {}
    }

    static final class Asynchronous {
        @BatonTool(description = "Adds later")
        public CompletableFuture<String> add(String text) {
            return CompletableFuture.completedFuture(text);
        }
    }

    static final class NoTools {
        public void add(String text) {}
    }

    static final class PrincipalOnly {
        @BatonTool(description = "Says who is calling")
        public String whoAmI(Principal caller) {
            return caller.userId();
        }
    }

    @Test
    void two_methods_with_the_same_tool_name_are_refused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new TwoNamedAlike()))
                .withMessageContaining(TwoNamedAlike.class.getName() + "#searchTasks(String)")
                .withMessageContaining("another method already defines a tool named 'search'");
    }

    @Test
    void the_same_tool_name_in_two_objects_is_refused_too() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new PrincipalOnly(), new PrincipalOnly()))
                .withMessageContaining("tool named 'whoAmI'");
    }

    @Test
    void a_name_that_is_not_function_name_safe_is_refused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new BadName()))
                .withMessage("@BatonTool " + BadName.class.getName()
                        + "#add(String): tool name 'add note' must match [a-zA-Z0-9_-]{1,64}");
    }

    @Test
    void a_blank_description_is_refused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new BlankDescription()))
                .withMessageContaining("#add(String): the description is blank");
    }

    @Test
    void a_method_that_is_not_public_is_refused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new NotPublic()))
                .withMessage("@BatonTool " + NotPublic.class.getName() + "#add(String) is not public");
    }

    @Test
    void a_map_argument_is_refused_because_its_keys_are_open() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new MapArgument()))
                .withMessageContaining(MapArgument.class.getName() + "#set(Map): parameter 'fields': ")
                .withMessageContaining("java.util.Map<java.lang.String, java.lang.String> is not supported");
    }

    @Test
    void a_plain_class_argument_is_refused_in_favour_of_a_record() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new PlainClassArgument()))
                .withMessageContaining("parameter 'settings': " + PlainClassArgument.Settings.class.getName()
                        + " is not supported; use a primitive");
    }

    @Test
    void an_unsupported_type_inside_a_record_is_refused_with_its_component() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new NestedUnsupported()))
                .withMessageContaining(
                        "parameter 'filter': component 'anything' of " + Filter.class.getName() + ": java.lang.Object");
    }

    @Test
    void a_raw_list_is_refused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new RawList()))
                .withMessageContaining("raw List is not supported: say what it holds");
    }

    @Test
    void a_primitive_cannot_be_optional() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new OptionalPrimitive()))
                .withMessageContaining("parameter 'limit' is a primitive and so cannot be optional; use Integer");
    }

    @Test
    void a_timeout_that_does_not_parse_is_refused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new BadTimeout()))
                .withMessageContaining("#waitABit(): timeout 'soon' is not a positive duration");
    }

    @Test
    void a_method_returning_a_future_is_refused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new Asynchronous()))
                .withMessageContaining("returns CompletableFuture: return the value itself");
    }

    @Test
    void an_object_without_tool_methods_or_a_null_object_is_refused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new NoTools()))
                .withMessage("@BatonTool " + NoTools.class.getName() + " has no @BatonTool methods");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new PrincipalOnly(), null))
                .withMessage("@BatonTool target #2 is null");
        assertThatIllegalArgumentException().isThrownBy(AnnotatedTools::from);
    }

    @Test
    void every_problem_is_listed_in_one_message() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(new BadName(), new NotPublic(), new MapArgument()))
                .withMessageStartingWith("@BatonTool: 3 problems:\n  - ")
                .withMessageContaining("'add note'")
                .withMessageContaining("is not public")
                .withMessageContaining("parameter 'fields'");
    }

    @Test
    void parameter_names_missing_from_the_class_file_are_refused_unless_named_with_param(@TempDir Path dir)
            throws Exception {
        Class<?> unnamed = compileWithoutParameterNames(dir, "Unnamed", """
                public class Unnamed {
                    @dev.baton.runtime.tool.BatonTool(description = "Adds a note")
                    public void add(String text) {}
                }
                """);
        Class<?> named = compileWithoutParameterNames(dir, "Named", """
                public class Named {
                    @dev.baton.runtime.tool.BatonTool(description = "Adds a note")
                    public void add(@dev.baton.runtime.tool.Param(name = "text") String text) {}
                }
                """);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> AnnotatedTools.from(unnamed.getConstructor().newInstance()))
                .withMessage("@BatonTool Unnamed#add(String): parameter names were not compiled in; compile with"
                        + " -parameters (Maven: <parameters>true</parameters> in maven-compiler-plugin) or name each"
                        + " with @Param(name = ...)");
        assertThat(AnnotatedTools.from(named.getConstructor().newInstance())
                        .tools()
                        .getFirst()
                        .definition()
                        .parametersSchema()
                        .at("/required/0")
                        .asText())
                .isEqualTo("text");
    }

    private static Class<?> compileWithoutParameterNames(Path dir, String className, String source)
            throws IOException, ReflectiveOperationException, URISyntaxException {
        Path file = Files.writeString(dir.resolve(className + ".java"), source);
        String annotations = Path.of(BatonTool.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toString();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(null, null, null, "-classpath", annotations, "-d", dir.toString(), file.toString());
        assertThat(status).as("javac exit status").isZero();
        URLClassLoader loader = new URLClassLoader(
                new URL[] {dir.toUri().toURL()}, AnnotatedToolRegistrationTest.class.getClassLoader());
        return loader.loadClass(className);
    }
}
