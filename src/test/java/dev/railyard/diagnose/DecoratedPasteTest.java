package dev.railyard.diagnose;

import dev.railyard.model.RailyardException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property: every real sample, decorated the way pastes are (logger and host prefixes, terminal borders, markdown
 * quotes and fences, CRLF), gives the same reading as the clean one: the same tool, the same worst verdict, the
 * same numbers.
 */
class DecoratedPasteTest {

    private static final List<String> FOLDERS = List.of("diagnose/corpus/dev", "diagnose/corpus/holdout",
            "bench/perftest", "bench/nccltests", "iperf3", "sockperf", "ib-tools", "kernel-log", "fio");

    record Decoration(String name, UnaryOperator<String> apply) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static String eachLine(String text, UnaryOperator<String> f) {
        return Arrays.stream(text.split("\n", -1)).map(f).collect(Collectors.joining("\n"));
    }

    private static final List<Decoration> DECORATIONS = List.of(
            new Decoration("pdsh host prefix", t -> eachLine(t, l -> "gpu-node-07: " + l)),
            new Decoration("test-runner prefix", t -> eachLine(t, l -> "12:10:43 DEBUG| [stdout] " + l)),
            new Decoration("markdown quote", t -> eachLine(t, l -> "> " + l)),
            new Decoration("markdown fence", t -> "```console\n" + t + "\n```\n"),
            new Decoration("tmux border", t -> eachLine(t, l -> "│ " + l + " │")),
            new Decoration("CRLF", t -> t.replace("\n", "\r\n")));

    static Stream<Arguments> samples() {
        List<Arguments> out = new ArrayList<>();
        for (String folder : FOLDERS) {
            for (String s : RealSample.all(folder)) {
                for (Decoration d : DECORATIONS) out.add(Arguments.of(s, d));
            }
        }
        return out.stream();
    }

    /** What a reading is, for comparing: tool, worst verdict, and every number with its name. */
    private static String reading(String text) {
        try {
            DiagnosisReport r = Diagnoser.standard().diagnose(text);
            return r.tool() + " " + r.worst() + " " + r.parsed().numbers();
        } catch (RailyardException.Usage e) {
            return "not recognised";
        }
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("samples")
    void decoratedReadsTheSameAsClean(String sample, Decoration decoration) {
        String clean = RealSample.text(sample);
        assertThat(reading(decoration.apply().apply(clean))).isEqualTo(reading(clean));
    }
}
