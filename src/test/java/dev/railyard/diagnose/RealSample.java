package dev.railyard.diagnose;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Real captured tool output from test resources, with its two attribution header lines stripped. */
public final class RealSample {

    private RealSample() {
    }

    public static String text(String resource) {
        try (InputStream in = RealSample.class.getResourceAsStream("/" + resource)) {
            if (in == null) throw new IllegalArgumentException("no test resource " + resource);
            String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int first = all.indexOf('\n');
            int second = all.indexOf('\n', first + 1);
            return all.substring(second + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every sample under a resource folder, as "folder/name". */
    public static List<String> all(String folder) {
        try {
            Path dir = Path.of(RealSample.class.getResource("/" + folder).toURI());
            try (Stream<Path> files = Files.list(dir)) {
                return files.map(p -> folder + "/" + p.getFileName()).sorted().toList();
            }
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
