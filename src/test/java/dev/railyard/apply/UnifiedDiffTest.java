package dev.railyard.apply;

import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The diff apply prints, hunk for hunk against GNU diff -u, and patch turns the old text into the new with it. */
class UnifiedDiffTest {

    private static final CommandRunner RUN = CommandRunner.system();

    private static String gnu(Path dir, String a, String b) throws IOException {
        Path fa = dir.resolve("a");
        Path fb = dir.resolve("b");
        Files.writeString(fa, a);
        Files.writeString(fb, b);
        CommandRunner.Result r = RUN.run(List.of("diff", "-u", fa.toString(), fb.toString()), Duration.ofSeconds(10));
        assumeTrue(!r.notFound(), "GNU diff is not installed");
        String out = r.stdout();
        int hunk = out.indexOf("@@");
        return hunk < 0 ? "" : out.substring(hunk);
    }

    private static String ours(String a, String b) {
        String d = UnifiedDiff.diff("a", "b", a, b);
        int hunk = d.indexOf("@@");
        return hunk < 0 ? "" : d.substring(hunk);
    }

    @Test
    void hunksMatchGnuDiffOnEditsOfARealFile(@TempDir Path dir) throws IOException {
        String base = Files.readString(Path.of("src/test/resources/golden/render/s4-h100-hdr/compute01/etc/slurm/railyard-nodes.conf"));
        List<String> lines = List.of(base.split("\n"));
        Random random = new Random(11);
        for (int round = 0; round < 40; round++) {
            List<String> edited = new ArrayList<>(lines);
            int edits = 1 + random.nextInt(4);
            for (int e = 0; e < edits; e++) {
                int at = random.nextInt(edited.size());
                switch (random.nextInt(3)) {
                    case 0 -> edited.remove(at);
                    case 1 -> edited.add(at, "inserted " + round + "-" + e);
                    default -> edited.set(at, edited.get(at) + " changed");
                }
            }
            String b = String.join("\n", edited) + "\n";
            assertThat(ours(base, b)).as("round %d", round).isEqualTo(gnu(dir, base, b));
        }
    }

    @Test
    void newAndEmptyFiles(@TempDir Path dir) throws IOException {
        assertThat(ours("", "one\ntwo\n")).isEqualTo(gnu(dir, "", "one\ntwo\n")).startsWith("@@ -0,0 +1,2 @@");
        assertThat(ours("one\n", "")).isEqualTo(gnu(dir, "one\n", ""));
        assertThat(UnifiedDiff.diff("a", "b", "same\n", "same\n")).isEmpty();
    }

    @Test
    void patchAppliesTheDiff(@TempDir Path dir) throws IOException {
        String a = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n";
        String b = "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n";
        Path file = dir.resolve("f");
        Files.writeString(file, a);
        Path patch = dir.resolve("p");
        Files.writeString(patch, UnifiedDiff.diff("f", "f", a, b));
        CommandRunner.Result r = RUN.run(List.of("patch", file.toString(), patch.toString()), Duration.ofSeconds(10));
        assumeTrue(!r.notFound(), "patch is not installed");
        assertThat(r.ok()).as(r.stdout() + r.stderr()).isTrue();
        assertThat(Files.readString(file)).isEqualTo(b);
    }
}
