package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DialectTest {

    @Test
    void the_dialect_follows_the_jdbc_url() {
        assertThat(Dialect.of("jdbc:sqlite:/tmp/x.db")).isEqualTo(Dialect.SQLITE);
        assertThat(Dialect.of("jdbc:postgresql://h:5432/db")).isEqualTo(Dialect.POSTGRESQL);
        assertThat(Dialect.POSTGRESQL.migrationFolder()).isEqualTo("postgresql");
    }

    @Test
    void an_unsupported_url_is_refused_without_echoing_its_password() {
        assertThatThrownBy(() -> Dialect.of("jdbc:mysql://h/db?password=hunter2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jdbc:mysql://h/db")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void the_sqlite_file_is_the_url_path_without_its_options() {
        assertThat(SqlitePool.fileOf("jdbc:sqlite:/var/lib/baton/baton.db?foo=bar"))
                .isEqualTo(Path.of("/var/lib/baton/baton.db"));
        assertThat(SqlitePool.fileOf("jdbc:sqlite:file:data/baton.db")).isEqualTo(Path.of("data/baton.db"));
        assertThatThrownBy(() -> SqlitePool.fileOf("jdbc:sqlite:")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SqlitePool.fileOf("jdbc:sqlite:file::memory:?cache=shared"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
