package dev.railyard.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The libraries in target/lib, as ./railyard and bundles run them: the build (src/build/UpgradeOldClassFiles.java)
 * left no class older than Java 6, which the AOT cache would skip, and every rewritten class passes the type-checking
 * verifier with its new stack maps.
 */
class ShippedLibrariesTest {

    private static final Path LIB = Path.of("target/lib");

    @Test
    void noClassIsOlderThanJava6AndEveryClassVerifies() throws IOException {
        List<Path> jars;
        try (Stream<Path> s = Files.list(LIB)) {
            jars = s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
        assertThat(jars).anySatisfy(j -> assertThat(j.getFileName().toString()).startsWith("picocli-"));
        List<String> problems = new ArrayList<>();
        int picocliClasses = 0;
        for (Path jar : jars) {
            boolean picocli = jar.getFileName().toString().startsWith("picocli-");
            try (ZipFile zip = new ZipFile(jar.toFile());
                 URLClassLoader loader = new URLClassLoader(new URL[]{jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
                ClassFile cf = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                        ClassHierarchyResolver.defaultResolver().orElse(ClassHierarchyResolver.ofResourceParsing(loader))));
                for (ZipEntry e : zip.stream().toList()) {
                    if (!e.getName().endsWith(".class") || e.getName().endsWith("module-info.class")
                            || e.getName().startsWith("META-INF/versions/")) continue;
                    byte[] bytes = zip.getInputStream(e).readAllBytes();
                    int major = ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff);
                    if (major < 50) problems.add(jar.getFileName() + "!" + e.getName() + ": version " + major);
                    if (picocli) {
                        picocliClasses++;
                        cf.verify(bytes).forEach(err -> problems.add(jar.getFileName() + "!" + e.getName() + ": " + err.getMessage()));
                    }
                }
            }
        }
        assertThat(picocliClasses).isGreaterThan(100);
        assertThat(problems).isEmpty();
    }
}
