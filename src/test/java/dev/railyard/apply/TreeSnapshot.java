package dev.railyard.apply;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Every regular file under a root with its mode and text: the whole state an apply (or a failed one) leaves. */
public final class TreeSnapshot {

    private TreeSnapshot() {
    }

    public static Map<String, String> of(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(p).toString(),
                        PosixFilePermissions.toString(Files.getPosixFilePermissions(p)) + "\n" + Files.readString(p));
            }
        }
        return files;
    }
}
