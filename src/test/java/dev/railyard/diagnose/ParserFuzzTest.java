package dev.railyard.diagnose;

import dev.railyard.bench.ToolParseException;
import dev.railyard.bench.fio.FioJsonParser;
import dev.railyard.bench.ibtools.IbstatParser;
import dev.railyard.bench.ibtools.IbvDevinfoParser;
import dev.railyard.bench.ibtools.KernelLogParser;
import dev.railyard.bench.ibtools.ShowGidsParser;
import dev.railyard.bench.iperf3.Iperf3JsonParser;
import dev.railyard.bench.iperf3.Iperf3TextParser;
import dev.railyard.bench.sockperf.SockperfParser;
import dev.railyard.model.RailyardException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every parser (and diagnose) on seeded-random truncations and garbles of every real sample: each must return or
 * throw ToolParseException (diagnose: RailyardException.Usage for unrecognisable input), never anything else.
 */
class ParserFuzzTest {

    private static final int ROUNDS = 25;
    private static final String GARBAGE = "{}[]\":,\n\t 0123456789.-eE\u001B\uFEFFxyz#=>|'";

    private record Target(String name, Consumer<String> parse) {}

    private static final List<Target> TARGETS = List.of(
            new Target("iperf3-json", s -> new Iperf3JsonParser().parse(s)),
            new Target("iperf3-text", s -> new Iperf3TextParser().parse(s)),
            new Target("sockperf", s -> new SockperfParser().parse(s)),
            new Target("fio", s -> new FioJsonParser().parse(s)),
            new Target("ibstat", s -> new IbstatParser().parse(s)),
            new Target("ibv_devinfo", s -> new IbvDevinfoParser().parse(s)),
            new Target("show_gids", s -> new ShowGidsParser().parse(s)),
            new Target("kernel-log", s -> new KernelLogParser().parse(s)),
            new Target("diagnose", s -> {
                try {
                    Diagnoser.standard().diagnose(s);
                } catch (RailyardException.Usage expected) {
                    // unrecognisable input is a usage error by design
                }
            }));

    @Test
    void truncatedAndGarbledSamplesParseOrFailTyped() {
        List<String> samples = new ArrayList<>();
        for (String folder : List.of("iperf3", "sockperf", "fio", "ib-tools", "kernel-log")) {
            samples.addAll(RealSample.all(folder));
        }
        List<String> unexpected = new ArrayList<>();
        int cases = 0;
        for (String sample : samples) {
            String text = RealSample.text(sample);
            if (text.length() > 60_000) text = text.substring(0, 60_000); // the 15k-row CSV adds nothing past this
            Random random = new Random(sample.hashCode());
            for (int round = 0; round < ROUNDS; round++) {
                String mutated = mutate(text, random);
                for (Target t : TARGETS) {
                    cases++;
                    try {
                        t.parse().accept(mutated);
                    } catch (ToolParseException expected) {
                        assertThat(expected.lineNumber()).isGreaterThanOrEqualTo(0);
                    } catch (RuntimeException e) {
                        unexpected.add(t.name() + " on " + sample + " round " + round + ": " + e);
                    }
                }
            }
        }
        assertThat(cases).isGreaterThan(5000);
        assertThat(unexpected).isEmpty();
    }

    private static String mutate(String text, Random random) {
        if (text.isEmpty()) return text;
        StringBuilder sb = new StringBuilder(text);
        switch (random.nextInt(4)) {
            case 0 -> sb.setLength(random.nextInt(sb.length()));
            case 1 -> sb.delete(random.nextInt(sb.length()), sb.length()).append(sb, 0, Math.min(sb.length(), 200));
            default -> { }
        }
        int garbles = random.nextInt(30);
        for (int i = 0; i < garbles && !sb.isEmpty(); i++) {
            int at = random.nextInt(sb.length());
            switch (random.nextInt(3)) {
                case 0 -> sb.setCharAt(at, GARBAGE.charAt(random.nextInt(GARBAGE.length())));
                case 1 -> sb.deleteCharAt(at);
                default -> sb.insert(at, "9".repeat(1 + random.nextInt(25)));
            }
        }
        return sb.toString();
    }
}
