package dev.railyard.cluster;

import dev.railyard.model.RailyardException;
import dev.railyard.platform.CommandRunner;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Builds a {@link Bundle}: a jlink'd runtime, the application's jars and {@code bin/railyard}, as one tar.gz in the
 * local cache. The hash is taken over the inputs (every class and jar byte, the JDK version, the module list, the
 * start script), so the cache is looked up before anything is built, and a node holding that hash runs the same code.
 */
public final class BundleBuilder {

    /**
     * What {@code jdeps --print-module-deps --ignore-missing-deps} says the jar and its libraries need
     * (java.base, java.desktop, java.management, java.sql, and since the agent java.net.http and jdk.httpserver),
     * plus what is reached only by reflection or a service lookup: logging, XML and jdk.unsupported for libraries.
     * The same list as scripts/make-runtime.sh.
     */
    public static final List<String> MODULES = List.of("java.base", "java.desktop", "java.logging",
            "java.management", "java.net.http", "java.sql", "java.xml", "jdk.httpserver", "jdk.unsupported");

    static final String MAIN_CLASS = "dev.railyard.cli.Main";

    /**
     * bin/railyard. Flags as the checkout's launcher chooses them: short commands stop at the C1 compiler, benchmarks
     * get the optimising one, the agent stays small; the ahead-of-time class cache that the node makes
     * when it unpacks the bundle ({@link NodeCache#UNPACK}) halves every later start (validate starts Railyard once
     * per step on every node: on the 8-host test cluster a pair test's JVM starts were most of its time).
     */
    static final String START_SCRIPT = """
            #!/bin/sh
            # Railyard from a bundle: its own Java runtime; nothing else is needed on this machine.
            here="$(cd "$(dirname "$0")/.." && pwd)"
            case "${1:-}" in
              bench|validate) tier="" ;;
              agent) export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
                     tier="-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -Xms8m -Xmx24m -Xmn8m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20 -XX:+UseCompactObjectHeaders -XX:MaxMetaspaceSize=64m -XX:ReservedCodeCacheSize=16m -Xss512k -XX:-UsePerfData" ;;
              *) tier="-XX:TieredStopAtLevel=1" ;;
            esac
            # RAILYARD_JAVA: the node's own JDK 25 when this runtime is built for another machine (the class
            # cache is the runtime's own, so it is not used then)
            if [ -n "${RAILYARD_JAVA:-}" ]; then
              exec "$RAILYARD_JAVA" -Xlog:disable -Xlog:all=off -XX:+UseSerialGC $tier \
                --enable-native-access=ALL-UNNAMED -cp "$here/app/*" %1$s "$@"
            fi
            if [ -f "$here/railyard.aot" ]; then
              exec "$here/runtime/bin/java" -Xlog:disable -Xlog:all=off -XX:+UseSerialGC $tier \
                -XX:AOTCache="$here/railyard.aot" --enable-native-access=ALL-UNNAMED -cp "$here/app/*" %1$s "$@"
            fi
            exec "$here/runtime/bin/java" -Xlog:disable -Xlog:all=off -XX:+UseSerialGC $tier \
              --enable-native-access=ALL-UNNAMED -cp "$here/app/*" %1$s "$@"
            """.formatted(MAIN_CLASS);

    private static final Duration JLINK_TIMEOUT = Duration.ofMinutes(5);
    private static final Pattern BUNDLE_LINE = Pattern.compile("railyard bundle ([0-9a-f]{16,64})");

    private final Path javaHome;
    private final Path cacheDir;
    private final CommandRunner runner;

    /** {@code javaHome} is a JDK with jlink; bundles are kept in {@code cacheDir}/bundles. */
    public BundleBuilder(Path javaHome, Path cacheDir, CommandRunner runner) {
        this.javaHome = javaHome;
        this.cacheDir = cacheDir;
        this.runner = runner;
    }

    /** The user's cache directory for Railyard: $XDG_CACHE_HOME/railyard, else ~/.cache/railyard. */
    public static Path userCacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && xdg.startsWith("/")) return Path.of(xdg, "railyard");
        return Path.of(System.getProperty("user.home"), ".cache", "railyard");
    }

    /** The class path of this JVM with each jar's manifest Class-Path followed ({@code java -jar railyard.jar}). */
    public static List<Path> thisClassPath() {
        Set<Path> all = new LinkedHashSet<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!e.isEmpty()) addWithManifestPath(Path.of(e).toAbsolutePath().normalize(), all);
        }
        return List.copyOf(all);
    }

    private static void addWithManifestPath(Path entry, Set<Path> all) {
        if (!Files.exists(entry) || !all.add(entry) || Files.isDirectory(entry)) return;
        try (JarFile jar = new JarFile(entry.toFile())) {
            Manifest m = jar.getManifest();
            String cp = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
            if (cp == null) return;
            for (String ref : cp.trim().split("\\s+")) {
                addWithManifestPath(entry.resolveSibling(ref).normalize(), all);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + entry, e);
        }
    }

    /** The bundle for this class path: from the cache, or built now (jlink takes a minute on a small machine). */
    public Bundle bundle(List<Path> classPath) {
        String hash = hash(classPath);
        Path tarball = cacheDir.resolve("bundles").resolve("railyard-" + hash + ".tar.gz");
        if (Files.isRegularFile(tarball)) return new Bundle(tarball, hash);
        Path jlink = javaHome.resolve("bin").resolve("jlink");
        if (!Files.isExecutable(jlink)) {
            // Railyard running from a bundle (a node without a JDK) passes on the bundle it runs from
            Optional<Bundle> running = runningBundle();
            if (running.isPresent()) return running.get();
            throw new RailyardException.MissingPrerequisite("no jlink in " + javaHome + ": a bundle is made from a "
                    + "JDK 25", "run railyard bundle with a JDK 25 (export JAVA_HOME=/path/to/jdk-25)");
        }
        try {
            Files.createDirectories(tarball.getParent());
            Path stage = Files.createTempDirectory(tarball.getParent(), "stage-");
            try {
                stage(stage, classPath, hash, jlink);
                Path partial = Files.createTempFile(tarball.getParent(), "railyard-" + hash, ".partial");
                run(List.of("tar", "-czf", partial.toString(), "--owner=0", "--group=0", "--numeric-owner",
                        "-C", stage.toString(), "."), "tar");
                Files.move(partial, tarball, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                readableByAll(tarball);
            } finally {
                deleteTree(stage);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the bundle in " + tarball.getParent(), e);
        }
        return new Bundle(tarball, hash);
    }

    /**
     * The bundle this JVM runs from (its runtime sits in a directory with a BUNDLE file), packed again into the
     * cache under its own hash; empty when this JVM is not a bundle's.
     */
    private Optional<Bundle> runningBundle() {
        Path root = javaHome.getParent();
        Path manifest = root == null ? null : root.resolve("BUNDLE");
        if (manifest == null || !Files.isRegularFile(manifest)) return Optional.empty();
        try {
            String first = Files.readAllLines(manifest).stream().findFirst().orElse("");
            Matcher m = BUNDLE_LINE.matcher(first);
            if (!m.matches()) return Optional.empty();
            String hash = m.group(1);
            Path tarball = cacheDir.resolve("bundles").resolve("railyard-" + hash + ".tar.gz");
            if (Files.isRegularFile(tarball)) return Optional.of(new Bundle(tarball, hash));
            Files.createDirectories(tarball.getParent());
            Path partial = Files.createTempFile(tarball.getParent(), "railyard-" + hash, ".partial");
            List<String> argv = new ArrayList<>(List.of("tar", "-czf", partial.toString(), "--owner=0", "--group=0",
                    "--numeric-owner", "-C", root.toString()));
            argv.addAll(List.of("BUNDLE", "app", "bin", "runtime"));
            run(argv, "tar");
            Files.move(partial, tarball, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            readableByAll(tarball);
            return Optional.of(new Bundle(tarball, hash));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot pack the running bundle " + root, e);
        }
    }

    /**
     * 0644, as tar and cp leave a file: the temporary file it was written as is 0600, and a bundle copied to a shared
     * directory for other users (--bundle, --railyard-path) must be readable by them. It holds no secret.
     */
    public static void readableByAll(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }

    private void stage(Path stage, List<Path> classPath, String hash, Path jlink) throws IOException {
        run(List.of(jlink.toString(), "--add-modules", String.join(",", MODULES), "--strip-debug",
                "--no-header-files", "--no-man-pages", "--compress=zip-9",
                "--output", stage.resolve("runtime").toString()), "jlink");
        Path app = Files.createDirectories(stage.resolve("app"));
        int n = 0;
        for (Path e : classPath) {
            n++;
            if (Files.isDirectory(e)) {
                jarDirectory(e, app.resolve(String.format("%02d-classes.jar", n)));
            } else {
                Files.copy(e, app.resolve(String.format("%02d-%s", n, e.getFileName())));
            }
        }
        Path bin = Files.createDirectories(stage.resolve("bin"));
        Path script = bin.resolve("railyard");
        Files.writeString(script, START_SCRIPT);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(stage.resolve("BUNDLE"), "railyard bundle " + hash + "\njava " + Runtime.version()
                + "\nmodules " + String.join(",", MODULES) + "\n");
    }

    private void run(List<String> argv, String what) {
        CommandRunner.Result r = runner.run(argv, JLINK_TIMEOUT);
        if (r.notFound()) {
            throw new RailyardException.MissingPrerequisite("cannot run " + what + ": " + r.startError(),
                    "install " + what);
        }
        if (!r.ok()) {
            throw new IllegalStateException(what + " failed (exit " + r.exitCode() + "): " + r.stderr().strip());
        }
    }

    String hash(List<Path> classPath) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            // the machine too: a bundle built on an aarch64 machine from the same jars is another bundle, and must
            // not share a node cache directory (a home shared over NFS) with the x86_64 one
            d.update(("railyard-bundle-1\n" + Runtime.version() + "\n" + BundleArchitecture.machine(
                    System.getProperty("os.arch")) + "\n" + MODULES + "\n" + START_SCRIPT)
                    .getBytes(StandardCharsets.UTF_8));
            for (Path e : classPath) {
                if (Files.isDirectory(e)) {
                    for (Path f : filesUnder(e)) {
                        d.update(e.relativize(f).toString().getBytes(StandardCharsets.UTF_8));
                        d.update(Files.readAllBytes(f));
                    }
                } else {
                    d.update(e.getFileName().toString().getBytes(StandardCharsets.UTF_8));
                    d.update(Files.readAllBytes(e));
                }
            }
            return HexFormat.of().formatHex(d.digest()).substring(0, 20);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Path> filesUnder(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).sorted().toList();
        }
    }

    /** A classes directory (a build tree, as in tests) as one jar. */
    private static void jarDirectory(Path dir, Path jar) throws IOException {
        try (OutputStream os = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(os)) {
            for (Path f : filesUnder(dir)) {
                out.putNextEntry(new JarEntry(dir.relativize(f).toString().replace('\\', '/')));
                try (InputStream in = Files.newInputStream(f)) {
                    in.transferTo(out);
                }
                out.closeEntry();
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            List<Path> all = new ArrayList<>(s.toList());
            java.util.Collections.reverse(all);
            for (Path p : all) Files.deleteIfExists(p);
        }
    }
}
