package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The published-library side of the build files, which nothing else checks: baton-bom lists every published module, each
 * jar names its automatic module, and the examples (which have no parent, so that they build when copied out of the
 * checkout) take Baton's version and the versions they pin from the root pom.xml.
 */
class BuildFilesTest {

    static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    /** modules of the reactor that are not published (nor listed in baton-bom) */
    static final List<String> UNPUBLISHED = List.of(
            "baton-bom", "baton-server", "baton-bench", "baton-image", "examples/embedded", "examples/spring-boot");

    @Test
    void theBomListsEveryPublishedModuleAtTheProjectVersion() throws Exception {
        Document bom = read("baton-bom/pom.xml");
        Map<String, String> listed = new LinkedHashMap<>();
        Element management = child(bom.getDocumentElement(), "dependencyManagement");
        for (Element dependency : children(child(management, "dependencies"), "dependency")) {
            assertThat(text(dependency, "groupId")).isEqualTo("dev.baton");
            listed.put(text(dependency, "artifactId"), text(dependency, "version"));
        }
        assertThat(listed.keySet()).containsExactlyInAnyOrderElementsOf(publishedModules());
        assertThat(listed.values()).containsOnly("${project.version}");
    }

    @Test
    void eachModuleNamesItsAutomaticModule() throws Exception {
        for (String module : publishedModules()) {
            Element properties = child(read(module + "/pom.xml").getDocumentElement(), "properties");
            assertThat(text(properties, "baton.module.name"))
                    .as(module)
                    .isEqualTo(
                            "dev.baton." + module.substring("baton-".length()).replace('-', '.'));
        }
    }

    @Test
    void theExamplesHaveNoParentAndTheRootPomsVersions() throws Exception {
        Element root = read("pom.xml").getDocumentElement();
        Element rootProperties = child(root, "properties");
        for (String example : List.of("examples/embedded", "examples/spring-boot")) {
            Element pom = read(example + "/pom.xml").getDocumentElement();
            assertThat(child(pom, "parent")).as(example).isNull();
            Element properties = child(pom, "properties");
            assertThat(text(properties, "baton.version")).as(example).isEqualTo(text(root, "version"));
            for (Element property : children(properties, null)) {
                String inRoot = text(rootProperties, property.getTagName());
                if (inRoot != null) {
                    assertThat(property.getTextContent().trim())
                            .as(example + " " + property.getTagName())
                            .isEqualTo(inRoot);
                }
            }
            Element imports = child(child(pom, "dependencyManagement"), "dependencies");
            Element first = children(imports, "dependency").get(0);
            assertThat(text(first, "artifactId")).as(example).isEqualTo("baton-bom");
            assertThat(text(first, "scope")).isEqualTo("import");
        }
    }

    static List<String> publishedModules() throws Exception {
        List<String> modules = new ArrayList<>();
        for (Element module : children(child(read("pom.xml").getDocumentElement(), "modules"), "module")) {
            String name = module.getTextContent().trim();
            if (!UNPUBLISHED.contains(name)) {
                modules.add(name);
            }
        }
        assertThat(modules).contains("baton-core", "baton-spring-boot-starter");
        return modules;
    }

    static Document read(String path) throws Exception {
        var factory = DocumentBuilderFactory.newInstance();
        try (var in = Files.newInputStream(REPO.resolve(path))) {
            return factory.newDocumentBuilder().parse(in);
        }
    }

    static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element
                    && (name == null || element.getTagName().equals(name))) {
                found.add(element);
            }
        }
        return found;
    }

    static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    static String text(Element parent, String name) {
        Element child = child(parent, name);
        return child == null ? null : child.getTextContent().trim();
    }
}
