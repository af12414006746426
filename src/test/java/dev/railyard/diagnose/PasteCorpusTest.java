package dev.railyard.diagnose;

import dev.railyard.model.RailyardException;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real pastes from public issue threads (test resources diagnose/corpus, each naming its source), each with the
 * reading a person expects written in its header before diagnose ran on it: which tool, the key number (or "-" when
 * the paste holds none), and the verdicts that are acceptable. "holdout" was written with "dev" and not tuned on
 * (its first-run misses were seen once, in the baseline); "holdout2" was collected and written after the work on
 * "dev" and run once; "holdout3" (fifteen pastes of shapes the others lack: errors, CRLF, quoted, indented) was
 * collected later still and run once before its misses were fixed. The goals (recognised >= 95 %, key number >= 90 %, verdict >= 90 %, no false FAIL) are asserted on all of them
 * together.
 */
class PasteCorpusTest {

    private static final Pattern EXPECT =
            Pattern.compile("^# expect: tool=(\\S+) key=(\\S+) verdict=(\\S+)\\s*$");

    record Expectation(String name, String tool, String key, Set<Severity> verdicts, String text) {}

    record Outcome(boolean recognised, boolean keyRight, boolean hasKey, boolean verdictOk, boolean falseFail,
                   String detail) {}

    static Expectation load(String resource) {
        try (InputStream in = PasteCorpusTest.class.getResourceAsStream("/" + resource)) {
            String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            String[] lines = all.split("\n", 3);
            assertThat(lines[0]).as(resource).matches("(?s)# source: https?://.*");
            Matcher m = EXPECT.matcher(lines[1]);
            assertThat(m.matches()).as(resource + " expect line").isTrue();
            Set<Severity> verdicts = Arrays.stream(m.group(3).split("\\|")).map(Severity::valueOf)
                    .collect(Collectors.toSet());
            return new Expectation(resource, m.group(1), m.group(2), verdicts, lines[2]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Outcome judge(Expectation e) {
        DiagnosisReport r;
        try {
            r = Diagnoser.standard().diagnose(e.text());
        } catch (RailyardException.Usage u) {
            return new Outcome(false, false, !e.key().equals("-"), false, false, "not recognised: " + u.getMessage());
        } catch (RuntimeException crash) {
            return new Outcome(false, false, !e.key().equals("-"), false, false, "crashed: " + crash);
        }
        boolean recognised = r.tool().name().equals(e.tool());
        boolean hasKey = !e.key().equals("-");
        boolean keyRight = hasKey && r.parsed().numbers().stream().anyMatch(m -> close(m.value(),
                Double.parseDouble(e.key())));
        Severity worst = r.worst();
        boolean verdictOk = recognised && e.verdicts().contains(worst);
        boolean falseFail = worst == Severity.FAIL && !e.verdicts().contains(Severity.FAIL);
        return new Outcome(recognised, keyRight, hasKey, verdictOk, falseFail,
                r.tool() + " " + worst + " " + r.parsed().numbers());
    }

    static boolean close(double got, double want) {
        return Math.abs(got - want) <= Math.max(Math.abs(want) * 0.01, 1e-9);
    }

    record Rates(int n, int recognised, int keys, int keysRight, int verdicts, int falseFails, List<String> misses) {
        double recognisedRate() {
            return (double) recognised / n;
        }

        double keyRate() {
            return keys == 0 ? 1 : (double) keysRight / keys;
        }

        double verdictRate() {
            return (double) verdicts / n;
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT,
                    "%d pastes: recognised %d (%.0f %%), key number %d of %d (%.0f %%), verdict %d (%.0f %%), "
                            + "false FAIL %d", n, recognised, 100 * recognisedRate(), keysRight, keys,
                    100 * keyRate(), verdicts, 100 * verdictRate(), falseFails);
        }
    }

    static Rates rates(String folder) {
        int n = 0, rec = 0, keys = 0, keysRight = 0, ok = 0, ff = 0;
        List<String> misses = new ArrayList<>();
        for (String resource : RealSample.all(folder)) {
            Expectation e = load(resource);
            Outcome o = judge(e);
            n++;
            if (o.recognised()) rec++;
            if (o.hasKey()) keys++;
            if (o.keyRight()) keysRight++;
            if (o.verdictOk()) ok++;
            if (o.falseFail()) ff++;
            if (!o.recognised() || (o.hasKey() && !o.keyRight()) || !o.verdictOk() || o.falseFail()) {
                misses.add(resource + " -> " + o.detail());
            }
        }
        return new Rates(n, rec, keys, keysRight, ok, ff, misses);
    }

    static Rates sum(List<Rates> parts) {
        return new Rates(parts.stream().mapToInt(Rates::n).sum(), parts.stream().mapToInt(Rates::recognised).sum(),
                parts.stream().mapToInt(Rates::keys).sum(), parts.stream().mapToInt(Rates::keysRight).sum(),
                parts.stream().mapToInt(Rates::verdicts).sum(), parts.stream().mapToInt(Rates::falseFails).sum(),
                List.of());
    }

    @Test
    void realPastesMeetTheGoals() {
        Rates dev = rates("diagnose/corpus/dev");
        Rates holdout = rates("diagnose/corpus/holdout");
        Rates holdout2 = rates("diagnose/corpus/holdout2");
        Rates holdout3 = rates("diagnose/corpus/holdout3");
        System.out.println("corpus dev:      " + dev);
        System.out.println("corpus holdout:  " + holdout);
        System.out.println("corpus holdout2: " + holdout2);
        System.out.println("corpus holdout3: " + holdout3);
        for (Rates r : List.of(dev, holdout, holdout2, holdout3)) {
            r.misses().forEach(m -> System.out.println("  miss " + m));
        }
        Rates all = sum(List.of(dev, holdout, holdout2, holdout3));
        System.out.println("corpus all:      " + all);
        assertThat(all.n()).isGreaterThanOrEqualTo(40);
        assertThat(all.recognisedRate()).as(all.toString()).isGreaterThanOrEqualTo(0.95);
        assertThat(all.keyRate()).as(all.toString()).isGreaterThanOrEqualTo(0.90);
        assertThat(all.verdictRate()).as(all.toString()).isGreaterThanOrEqualTo(0.90);
        assertThat(all.falseFails()).as(all.toString()).isZero();
    }

    /**
     * dev4: real pastes of the cluster tools beyond the benchmarks (InfiniBand diagnostics, nvidia-smi, DCGM, lspci,
     * ethtool, OSU, UCX, iperf2) and kernel logs beyond NVIDIA, collected together with holdout4 and split from it by
     * a hash of the file name before either was run.
     */
    @Test
    void realPastesOfClusterToolsMeetTheGoals() {
        Rates dev4 = rates("diagnose/corpus/dev4");
        System.out.println("corpus dev4:     " + dev4);
        dev4.misses().forEach(m -> System.out.println("  miss " + m));
        assertThat(dev4.n()).isGreaterThanOrEqualTo(100);
        assertThat(dev4.recognisedRate()).as(dev4.toString()).isGreaterThanOrEqualTo(0.95);
        assertThat(dev4.keyRate()).as(dev4.toString()).isGreaterThanOrEqualTo(0.90);
        assertThat(dev4.verdictRate()).as(dev4.toString()).isGreaterThanOrEqualTo(0.90);
        assertThat(dev4.falseFails()).as(dev4.toString()).isZero();
    }

    /** holdout4: collected with dev4, set aside before any run, run once when the readers were done. */
    @Test
    void heldAsidePastesOfClusterTools() {
        Rates holdout4 = rates("diagnose/corpus/holdout4");
        System.out.println("corpus holdout4: " + holdout4);
        holdout4.misses().forEach(m -> System.out.println("  miss " + m));
        assertThat(holdout4.n()).isGreaterThanOrEqualTo(40);
        // its one run (docs/diagnose-corpus.md): 43/45 recognised, 18/19 key numbers, 41/45 verdicts, 1 false FAIL
        assertThat(holdout4.recognisedRate()).as(holdout4.toString()).isGreaterThanOrEqualTo(0.95);
        assertThat(holdout4.keyRate()).as(holdout4.toString()).isGreaterThanOrEqualTo(0.90);
        assertThat(holdout4.verdictRate()).as(holdout4.toString()).isGreaterThanOrEqualTo(0.90);
        // after its one run, its ibportstate fragment and the one-host NCCL log (byteps 97) were read right
        assertThat(holdout4.falseFails()).as(holdout4.toString()).isZero();
    }

    /**
     * holdout5: 43 pastes collected after the readers of holdout4 were done, their readings written and committed
     * before diagnose ran on them. Its one run read 36 / 12 of 15 / 35; its misses were then fixed, so it is a
     * development set now, held to what it reads today.
     */
    @Test
    void secondHeldAsideSetOfClusterTools() {
        Rates holdout5 = rates("diagnose/corpus/holdout5");
        System.out.println("corpus holdout5: " + holdout5);
        holdout5.misses().forEach(m -> System.out.println("  miss " + m));
        assertThat(holdout5.n()).isEqualTo(43);
        assertThat(holdout5.recognised()).as(holdout5.toString()).isGreaterThanOrEqualTo(43);
        assertThat(holdout5.keysRight()).as(holdout5.toString()).isGreaterThanOrEqualTo(15);
        assertThat(holdout5.verdicts()).as(holdout5.toString()).isGreaterThanOrEqualTo(42);
        assertThat(holdout5.falseFails()).as(holdout5.toString()).isZero();
    }

    /**
     * holdout6: 41 pastes collected after holdout5's misses were fixed, their readings written and committed before
     * diagnose ran on them, and not tuned on: run once, when the work of their round was done.
     */
    @Test
    void thirdHeldAsideSetOfClusterTools() {
        Rates holdout6 = rates("diagnose/corpus/holdout6");
        System.out.println("corpus holdout6: " + holdout6);
        holdout6.misses().forEach(m -> System.out.println("  miss " + m));
        assertThat(holdout6.n()).isEqualTo(41);
        // its one run (docs/diagnose-corpus.md), below the goals: what it read then must not get worse
        assertThat(holdout6.recognised()).as(holdout6.toString()).isGreaterThanOrEqualTo(37);
        assertThat(holdout6.keysRight()).as(holdout6.toString()).isGreaterThanOrEqualTo(4);
        assertThat(holdout6.verdicts()).as(holdout6.toString()).isGreaterThanOrEqualTo(27);
        assertThat(holdout6.falseFails()).as(holdout6.toString()).isZero();
    }
}
