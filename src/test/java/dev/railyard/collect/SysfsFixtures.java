package dev.railyard.collect;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Unpacks the real sysfs fixtures kept in test resources into a directory: the upstream ttar excerpts (Path/Lines/
 * Mode/SymlinkTo records, as prometheus/procfs writes them) and "==> path <==" dumps. Unpacked here rather than
 * committed twice, because the shared unpacked trees lost their symlinks.
 */
public final class SysfsFixtures {

    private SysfsFixtures() {}

    /** The resource text with its two source header lines stripped. */
    public static List<String> resourceLines(String resource) {
        try (InputStream in = SysfsFixtures.class.getResourceAsStream("/sysfs/" + resource)) {
            if (in == null) throw new IllegalArgumentException("no test resource sysfs/" + resource);
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            if (!lines.get(0).startsWith("# SOURCE:")) throw new IllegalStateException(resource + " has no header");
            return lines.subList(2, lines.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Unpacks a ttar excerpt from resources sysfs/ttar/ under {@code into}; returns {@code into}. */
    public static Path unpackTtar(String resource, Path into) throws IOException {
        List<String> lines = resourceLines("ttar/" + resource);
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i++);
            if (line.startsWith("Directory: ")) {
                Files.createDirectories(into.resolve(line.substring("Directory: ".length())));
            } else if (line.startsWith("Path: ")) {
                Path target = into.resolve(line.substring("Path: ".length()));
                Files.createDirectories(target.getParent());
                String next = lines.get(i++);
                if (next.startsWith("SymlinkTo: ")) {
                    Files.createSymbolicLink(target, Path.of(next.substring("SymlinkTo: ".length())));
                } else if (next.startsWith("Lines: ")) {
                    int n = Integer.parseInt(next.substring("Lines: ".length()).trim());
                    StringBuilder content = new StringBuilder();
                    for (int k = 0; k < n; k++) content.append(lines.get(i++)).append('\n');
                    // ttar marks a file without a final newline by ending its last line with "EOF"
                    if (content.toString().endsWith("EOF\n")) content.setLength(content.length() - 4);
                    Files.writeString(target, content);
                } else {
                    throw new IllegalStateException(resource + ": unexpected record line " + next);
                }
            }
            // "Mode:" lines and "# ttar" separators carry nothing a reader needs
        }
        return into;
    }

    /** Unpacks a "==> relative/path <==" dump (telegraf, gpud) under {@code into}; returns {@code into}. */
    public static Path unpackDump(String resource, Path into) throws IOException {
        List<String> lines = resourceLines(resource);
        Path current = null;
        StringBuilder content = new StringBuilder();
        for (String line : lines) {
            if (line.startsWith("==> ") && line.endsWith(" <==")) {
                if (current != null) Files.writeString(current, content);
                String name = line.substring(4, line.length() - 4).split(" ")[0];
                current = into.resolve(name);
                Files.createDirectories(current.getParent());
                content.setLength(0);
            } else if (current != null) {
                content.append(line).append('\n');
            }
        }
        if (current != null) Files.writeString(current, content);
        return into;
    }

    /** A directory tree copied as-is into test resources (the gpud H100 capture). */
    public static Path resourceTree(String name) {
        try {
            return Path.of(SysfsFixtures.class.getResource("/sysfs/" + name).toURI());
        } catch (Exception e) {
            throw new IllegalStateException("no test resource tree sysfs/" + name, e);
        }
    }
}
