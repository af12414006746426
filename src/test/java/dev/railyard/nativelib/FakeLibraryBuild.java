package dev.railyard.nativelib;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Builds a fake native library from src/test/c with gcc, warnings as errors; skips the calling test without gcc. */
final class FakeLibraryBuild {

    private static final Path SOURCES = Path.of("src/test/c");

    private FakeLibraryBuild() {
    }

    /** Compiles {@code sources} (names in src/test/c) with {@code -Dname} for each define into {@code lib}. */
    static Path sharedLibrary(Path lib, List<String> defines, String... sources)
            throws IOException, InterruptedException {
        Assumptions.assumeTrue(gccPresent(), "gcc is not installed: " + lib.getFileName() + " cannot be built");
        List<String> argv = new ArrayList<>(List.of("gcc", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC"));
        for (String d : defines) argv.add("-D" + d);
        argv.addAll(List.of("-o", lib.toString()));
        for (String source : sources) argv.add(SOURCES.resolve(source).toString());
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("gcc timed out");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("gcc failed on " + String.join(", ", sources) + ": " + out);
        }
        return lib;
    }

    private static boolean gccPresent() {
        try {
            Process p = new ProcessBuilder("gcc", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
