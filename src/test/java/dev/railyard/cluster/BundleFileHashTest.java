package dev.railyard.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tarball given with --bundle is named on nodes by the hash its BUNDLE file states, the name validate's own bundle
 * of that build has, so a node keeps one copy however the bundle came to it. Tarballs are made by the real tar,
 * packed the way BundleBuilder packs them (-C stage .).
 */
class BundleFileHashTest {

    private static Path tar(Path dir, String bundleText) throws Exception {
        Path stage = Files.createDirectories(dir.resolve("stage"));
        Files.createDirectories(stage.resolve("bin"));
        Files.writeString(stage.resolve("bin/railyard"), "#!/bin/sh\n");
        Files.write(stage.resolve("big.bin"), new byte[300_000]);
        if (bundleText != null) Files.writeString(stage.resolve("BUNDLE"), bundleText);
        Path out = dir.resolve("b.tar.gz");
        Process p = new ProcessBuilder(List.of("tar", "-czf", out.toString(), "--owner=0", "--group=0", "--numeric-owner",
                "-C", stage.toString(), ".")).inheritIO().start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        return out;
    }

    @Test
    void theStatedHashNamesTheBundle(@TempDir Path dir) throws Exception {
        Path t = tar(dir, "railyard bundle 3b186dc4b38a439353ce\njava 25.0.3+9-LTS\nmodules java.base\n");
        assertThat(Bundle.fromFile(t).hash()).isEqualTo("3b186dc4b38a439353ce");
    }

    @Test
    void aTarballWithoutOneIsNamedByItsContent(@TempDir Path dir) throws Exception {
        Path t = tar(dir, null);
        assertThat(Bundle.statedHash(t)).isEmpty();
        assertThat(Bundle.fromFile(t).hash()).matches("[0-9a-f]{20}");
    }

    @Test
    void aBundleFileIsReadableByAll(@TempDir Path dir) throws Exception {
        Path f = Files.createTempFile(dir, "railyard-", ".partial");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
        BundleBuilder.readableByAll(f);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-r--r--");
    }
}
