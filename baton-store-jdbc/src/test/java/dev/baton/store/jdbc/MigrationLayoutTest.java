package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Baton's own migrations stay in V1..V99 (V100 and up belong to other modules) and exist for both dialects. */
class MigrationLayoutTest {
    private static final Pattern VERSIONED = Pattern.compile("V(\\d+)__.+\\.sql");

    @Test
    void both_dialects_have_the_same_versions_all_below_100() throws Exception {
        List<String> sqlite = files("sqlite");
        List<String> postgres = files("postgresql");

        assertThat(sqlite).isNotEmpty().isEqualTo(postgres);
        for (String name : sqlite) {
            Matcher m = VERSIONED.matcher(name);
            assertThat(m.matches()).as(name).isTrue();
            assertThat(Integer.parseInt(m.group(1))).as(name).isBetween(1, 99);
        }
    }

    private static List<String> files(String dialect) throws IOException, URISyntaxException {
        Path folder = Path.of(MigrationLayoutTest.class
                .getResource("/db/migration/baton/" + dialect)
                .toURI());
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
