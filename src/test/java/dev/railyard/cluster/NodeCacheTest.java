package dev.railyard.cluster;

import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The node cache's PROBE and UNPACK programs run by real shells (dash is Debian's sh, bash is Red Hat's) in a
 * temporary HOME and XDG_CACHE_HOME: versions unused for longer than {@link NodeCache#UNUSED_FOR} go, the version in
 * use and recent ones stay, and nothing that is not a version directory is ever touched.
 */
class NodeCacheTest {

    private static final String NEW = "0123456789abcdef0123";
    private static final String OLD = "fedcba9876543210fedc";
    private static final String RECENT = "aaaaaaaaaaaaaaaaaaaa";
    private static final String OLD_64 = "b".repeat(64);

    @TempDir
    Path tmp;
    Path cache;
    Path railyard;
    Path tarball;

    @BeforeEach
    void bundle() throws IOException {
        cache = tmp.resolve("cache");
        railyard = Files.createDirectories(cache.resolve("railyard"));
        // the smallest bundle UNPACK accepts; its top directory is as old as a bundle built weeks ago and cached
        Path stage = Files.createDirectories(tmp.resolve("stage/bin"));
        Files.writeString(stage.resolve("railyard"), "#!/bin/sh\necho railyard fake\n");
        Files.setPosixFilePermissions(stage.resolve("railyard"), PosixFilePermissions.fromString("rwxr-xr-x"));
        age(stage, 30);
        age(stage.getParent(), 30);
        tarball = tmp.resolve("bundle.tar.gz");
        CommandRunner.Result tar = CommandRunner.system().run(List.of("tar", "-czf", tarball.toString(), "-C",
                stage.getParent().toString(), "."), Duration.ofSeconds(30));
        assertThat(tar.ok()).as(tar.stderr()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"dash", "bash"})
    void unpackRemovesUnusedVersionsAndTouchesNothingElse(String shell) throws IOException {
        Map<String, Path> removed = new java.util.LinkedHashMap<>();
        removed.put("a version unused for 30 days", version(OLD, 30));
        removed.put("a 64-hex version unused for 30 days", version(OLD_64, 30));
        removed.put("an interrupted unpack 30 days old", version(OLD + ".partial.4242", 30));
        removed.put("an interrupted unpack of this version 30 days old", version(NEW + ".partial.77", 30));
        Map<String, Path> kept = new java.util.LinkedHashMap<>();
        kept.put("a version used 13 days ago", version(RECENT, 13));
        kept.put("an unpack under way", version(RECENT + ".partial.99", 0));
        kept.put("the local bundle cache", version("bundles", 30));
        kept.put("a directory not named by a hash", version("notahash", 30));
        kept.put("upper-case hex", version(OLD.toUpperCase(), 30));
        kept.put("15 hex digits", version("c".repeat(15), 30));
        kept.put("65 hex digits", version("c".repeat(65), 30));
        kept.put("hex and a space", version(OLD + " x", 30));
        kept.put("a partial with a non-numeric tail", version(OLD + ".partial.12x", 30));
        kept.put("a partial with no tail", version(OLD + ".partial.", 30));
        kept.put("a hidden hex name", version("." + OLD, 30));
        Path file = Files.writeString(railyard.resolve("dddddddddddddddddddd"), "a file, not a version");
        age(file, 30);
        kept.put("a regular file with a hex name", file);
        Path elsewhere = version("../../elsewhere/" + OLD, 30);
        Path link = Files.createSymbolicLink(railyard.resolve("eeeeeeeeeeeeeeeeeeee"), elsewhere);
        kept.put("a link with a hex name", link);
        kept.put("the directory a hex-named link points to", elsewhere);
        kept.put("a version in another program's cache", version("../other/" + OLD, 30));

        CommandRunner.Result r = run(shell, NodeCache.unpack(railyard.resolve(NEW).toString(), tarball.toString()),
                cache, tmp.resolve("home"));

        assertThat(r.ok()).as(r.stderr()).isTrue();
        assertThat(railyard.resolve(NEW + "/bin/railyard")).isExecutable();
        assertThat(ageInDays(railyard.resolve(NEW))).as("the version just unpacked counts as used now").isZero();
        removed.forEach((what, p) -> assertThat(Files.exists(p, LinkOption.NOFOLLOW_LINKS)).as(what).isFalse());
        kept.forEach((what, p) -> assertThat(Files.exists(p, LinkOption.NOFOLLOW_LINKS)).as(what).isTrue());
        assertThat(elsewhere.resolve("bin/railyard")).as("nothing under a link is removed").exists();
    }

    @ParameterizedTest
    @ValueSource(strings = {"dash", "bash"})
    void probeOfAPresentVersionMarksItUsedAndPrunesTheUnused(String shell) throws IOException {
        Path current = version(NEW, 30);
        Path old = version(OLD, 30);
        Path recent = version(RECENT, 13);

        CommandRunner.Result r = run(shell, NodeCache.probe(NEW), cache, tmp.resolve("home"));

        assertThat(r.ok()).as(r.stderr()).isTrue();
        assertThat(r.stdout()).startsWith("present " + current + "\narch ");
        assertThat(r.stderr()).isEmpty();
        assertThat(ageInDays(current)).as("a probe that finds the version refreshes its mtime").isZero();
        assertThat(current).exists();
        assertThat(old).doesNotExist();
        assertThat(ageInDays(recent)).as("a version not probed keeps its age").isEqualTo(13);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dash", "bash"})
    void probeOfAnAbsentVersionPrunesToo(String shell) throws IOException {
        Path old = version(OLD, 30);
        Path recent = version(RECENT, 13);

        CommandRunner.Result r = run(shell, NodeCache.probe(NEW), cache, tmp.resolve("home"));

        assertThat(r.ok()).as(r.stderr()).isTrue();
        assertThat(r.stdout()).startsWith("absent " + railyard.resolve(NEW) + "\narch ");
        assertThat(old).doesNotExist();
        assertThat(recent).exists();
    }

    @ParameterizedTest
    @ValueSource(strings = {"dash", "bash"})
    void cacheDirectoryWithSpacesAndQuotesIsPrunedToo(String shell) throws IOException {
        cache = tmp.resolve("it's a \"cache\" $HOME `id` *");
        railyard = Files.createDirectories(cache.resolve("railyard"));
        Path old = version(OLD, 30);
        Path recent = version(RECENT, 13);
        Path stranger = version("notahash", 30);

        CommandRunner.Result unpack = run(shell, NodeCache.unpack(railyard.resolve(NEW).toString(),
                tarball.toString()), cache, tmp.resolve("home"));
        assertThat(unpack.ok()).as(unpack.stderr()).isTrue();
        assertThat(old).doesNotExist();

        Path older = version(OLD, 30);
        CommandRunner.Result probe = run(shell, NodeCache.probe(NEW), cache, tmp.resolve("home"));
        assertThat(probe.stdout()).startsWith("present " + railyard.resolve(NEW) + "\narch ");
        assertThat(older).doesNotExist();
        assertThat(recent).exists();
        assertThat(stranger).exists();
    }

    @Test
    void withoutXdgCacheHomeTheCacheUnderHomeIsPruned() throws IOException {
        Path home = tmp.resolve("a home with spaces");
        cache = home.resolve(".cache");
        railyard = Files.createDirectories(cache.resolve("railyard"));
        Path old = version(OLD, 30);
        Path recent = version(RECENT, 13);

        CommandRunner.Result r = run("sh", NodeCache.probe(NEW), Path.of(""), home);

        assertThat(r.stdout()).startsWith("absent " + railyard.resolve(NEW) + "\narch ");
        assertThat(old).doesNotExist();
        assertThat(recent).exists();
    }

    /**
     * An old version the node user cannot remove (a directory without write permission inside): the probe and the
     * unpack still succeed and say nothing, and the other old version still goes. As root the programs run as
     * nobody, since root may remove anything.
     */
    @Test
    void pruneErrorsDoNotFailTheStep() throws IOException {
        Path stuck = version(OLD, 30);
        Path locked = Files.createDirectories(stuck.resolve("runtime/lib"));
        Files.writeString(locked.resolve("modules"), "x");
        Path removable = version(OLD_64, 30);
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv (util-linux)");
            handToNobody(tmp);
        }
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
        age(stuck, 30);
        try {
            List<String> unpack = NodeCache.unpack(railyard.resolve(NEW).toString(), tarball.toString());
            CommandRunner.Result u = run("sh", root ? asNobody(unpack) : unpack, cache, tmp.resolve("home"));
            assertThat(u.exitCode()).as(u.stderr()).isZero();
            assertThat(u.stderr()).isEmpty();
            assertThat(railyard.resolve(NEW + "/bin/railyard")).isExecutable();
            assertThat(removable).as("the old version that can go still goes").doesNotExist();
            assertThat(locked.resolve("modules")).as("the test really had an unremovable file").exists();

            age(stuck, 30);
            List<String> probe = NodeCache.probe(NEW);
            CommandRunner.Result p = run("sh", root ? asNobody(probe) : probe, cache, tmp.resolve("home"));
            assertThat(p.exitCode()).as(p.stderr()).isZero();
            assertThat(p.stdout()).startsWith("present " + railyard.resolve(NEW) + "\narch ");
            assertThat(p.stderr()).isEmpty();
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /** A directory under the cache's railyard directory with a bin/railyard, last modified {@code days} ago. */
    private Path version(String name, int days) throws IOException {
        Path dir = railyard.resolve(name).normalize();
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.writeString(bin.resolve("railyard"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(bin.resolve("railyard"), PosixFilePermissions.fromString("rwxr-xr-x"));
        age(dir, days);
        return dir;
    }

    private static void age(Path p, int days) throws IOException {
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minus(Duration.ofDays(days))));
    }

    private static long ageInDays(Path p) throws IOException {
        return Duration.between(Files.getLastModifiedTime(p).toInstant(), Instant.now()).toDays();
    }

    /** The program's argv with {@code shell} in place of sh, as the node's user with this HOME and cache. */
    private static CommandRunner.Result run(String shell, List<String> argv, Path xdgCacheHome, Path home) {
        Assumptions.assumeTrue(Stream.of("/bin", "/usr/bin").anyMatch(d -> Files.isExecutable(Path.of(d, shell))),
                shell + " is not installed");
        List<String> withShell = new ArrayList<>(argv);
        int sh = withShell.indexOf("sh");
        withShell.set(sh, shell);
        return CommandRunner.system().run(withShell, Duration.ofSeconds(60), Path.of("."), Map.of(
                "HOME", home.toString(), "XDG_CACHE_HOME", xdgCacheHome.toString()));
    }

    private static List<String> asNobody(List<String> argv) {
        List<String> all = new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "--"));
        all.addAll(argv);
        return all;
    }

    private static void handToNobody(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.toList()) {
                Files.setAttribute(p, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(p, "unix:gid", 65534, LinkOption.NOFOLLOW_LINKS);
            }
        }
    }
}
