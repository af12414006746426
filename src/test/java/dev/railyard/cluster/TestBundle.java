package dev.railyard.cluster;

import dev.railyard.platform.CommandRunner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The bundle tests copy to nodes: target/classes and target/lib (the runtime libraries, copied before the tests),
 * i.e. what ships, without the test libraries on this JVM's class path. Built once per input hash into
 * target/bundle-cache.
 */
final class TestBundle {

    private TestBundle() {
    }

    static List<Path> classPath() {
        List<Path> cp = new ArrayList<>(List.of(Path.of("target", "classes").toAbsolutePath()));
        try (Stream<Path> libs = Files.list(Path.of("target", "lib"))) {
            libs.filter(p -> p.toString().endsWith(".jar")).sorted().map(Path::toAbsolutePath).forEach(cp::add);
        } catch (IOException e) {
            throw new UncheckedIOException("no target/lib: run the tests through Maven", e);
        }
        return cp;
    }

    static Bundle build() {
        return new BundleBuilder(Path.of(System.getProperty("java.home")),
                Path.of("target", "bundle-cache").toAbsolutePath(), CommandRunner.system()).bundle(classPath());
    }
}
