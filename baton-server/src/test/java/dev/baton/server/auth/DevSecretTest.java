package dev.baton.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevSecretTest {

    @TempDir
    Path dir;

    @Test
    void the_first_start_makes_a_secret_only_its_owner_can_read_and_later_starts_reuse_it() throws Exception {
        Path data = dir.resolve("data");

        DevSecret.Kept first = DevSecret.loadOrCreate(data);
        DevSecret.Kept second = DevSecret.loadOrCreate(data);

        assertThat(first.created()).isTrue();
        assertThat(second.created()).isFalse();
        assertThat(second.secret()).isEqualTo(first.secret());
        assertThat(JwtSecret.of(first.secret()).bytes()).hasSizeGreaterThanOrEqualTo(32);
        assertThat(Files.getPosixFilePermissions(first.file()))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(DevSecret.load(data)).contains(first.secret());
        try (var files = Files.list(data)) {
            assertThat(files).containsExactly(data.resolve(DevSecret.FILE_NAME));
        }
    }

    @Test
    void there_is_none_until_a_server_made_one_and_it_never_shows_in_logs() throws Exception {
        assertThat(DevSecret.load(dir)).isEmpty();
        assertThat(DevSecret.loadOrCreate(dir).toString())
                .doesNotContain(DevSecret.load(dir).orElseThrow());
    }
}
