package dev.railyard.collect;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Unpacks a ttar archive (the text archive format of prometheus/procfs and node_exporter fixtures) from the test
 * classpath into a directory. The resource starts with our two SOURCE/HARDWARE lines, which are skipped.
 */
public final class HostTtar {

    private HostTtar() {
    }

    public static void unpack(String resource, Path into) {
        List<String> lines;
        try (InputStream in = HostTtar.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalArgumentException("no test resource " + resource);
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().skip(2).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("Directory: ")) {
                    Files.createDirectories(into.resolve(line.substring("Directory: ".length())));
                } else if (line.startsWith("Path: ")) {
                    Path file = into.resolve(line.substring("Path: ".length()));
                    Files.createDirectories(file.getParent());
                    String next = i + 1 < lines.size() ? lines.get(i + 1) : "";
                    if (next.startsWith("SymlinkTo: ")) {
                        Files.createSymbolicLink(file, Path.of(next.substring("SymlinkTo: ".length())));
                        i++;
                    } else if (next.startsWith("Lines: ")) {
                        int count = Integer.parseInt(next.substring("Lines: ".length()).trim());
                        StringBuilder content = new StringBuilder();
                        for (int k = 0; k < count; k++) content.append(decode(lines.get(i + 2 + k))).append('\n');
                        String text = content.toString();
                        // ttar marks a last line without a newline with a trailing EOF.
                        if (count > 0 && text.endsWith("\u0000EOF\n")) text = text.substring(0, text.length() - 5);
                        Files.writeString(file, text);
                        i += 1 + count;
                    } else {
                        Files.writeString(file, "");
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Marks an unescaped trailing EOF with a NUL so unpack can drop the newline; restores escaped NULLBYTE/EOF. */
    private static String decode(String line) {
        String s = line;
        if (s.endsWith("EOF") && !s.endsWith("\\EOF")) s = s.substring(0, s.length() - 3) + "\u0000EOF";
        return s.replace("\\EOF", "EOF").replace("\\NULLBYTE", "NULLBYTE");
    }
}
