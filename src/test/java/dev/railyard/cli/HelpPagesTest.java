package dev.railyard.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every --help page, rendered as a user sees it: no picocli format warning (a stray % in the text), every example
 * on one line, and no words from our own notes ("seed 001", "S1") that mean nothing to a user.
 */
class HelpPagesTest {

    /** Internal names: the seed documents and the seed systems of PRODUCT.md. */
    private static final Pattern JARGON = Pattern.compile("(?i)\\bseeds?\\b|\\bS[1-4]\\b");

    static Map<String, CommandLine> allCommands() {
        Map<String, CommandLine> out = new LinkedHashMap<>();
        collect(Main.commandLine(), out);
        return out;
    }

    private static void collect(CommandLine cl, Map<String, CommandLine> out) {
        out.put(cl.getCommandSpec().qualifiedName(), cl);
        cl.getSubcommands().values().stream().distinct().forEach(c -> collect(c, out));
    }

    /** The page and whatever picocli printed to stderr while rendering it. */
    private static String[] render(CommandLine cl) {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            return new String[]{cl.getUsageMessage(), err.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setErr(saved);
        }
    }

    @Test
    void everyPageRendersWithoutWarningsJargonOrBrokenExamples() {
        Map<String, CommandLine> commands = allCommands();
        assertThat(commands).containsKeys("railyard", "railyard inventory", "railyard check", "railyard capture",
                "railyard bench rdma", "railyard bench nccl", "railyard diagnose");
        List<String> problems = new ArrayList<>();
        for (var e : commands.entrySet()) {
            // The narrowest terminal we write for: an example that fits here fits everywhere.
            e.getValue().setUsageHelpWidth(80);
            String[] page = render(e.getValue());
            if (!page[1].isEmpty()) problems.add(e.getKey() + ": picocli warned: " + page[1].strip());
            var m = JARGON.matcher(page[0]);
            while (m.find()) problems.add(e.getKey() + ": internal jargon '" + m.group() + "'");
            for (String example : examples(e.getValue())) {
                if (page[0].lines().noneMatch(l -> l.strip().equals(example))) {
                    problems.add(e.getKey() + ": example wrapped or altered: " + example);
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    /**
     * Footer lines of example commands ("  railyard ...", and the lines a trailing backslash continues), with picocli's
     * %% resolved: each must come out of the renderer as the same whole line.
     */
    private static List<String> examples(CommandLine cl) {
        List<String> out = new ArrayList<>();
        boolean continued = false;
        for (String line : cl.getCommandSpec().usageMessage().footer()) {
            String text = line.replace("%%", "%").strip();
            if (continued || text.startsWith("railyard ") || text.startsWith("mkdir ") || text.startsWith("tar ")
                    || text.startsWith("source ")) {
                out.add(text);
                continued = text.endsWith("\\");
            }
        }
        return out;
    }

    @Test
    void thePagesHaveExamplesToTest() {
        assertThat(allCommands().values().stream().mapToInt(c -> examples(c).size()).sum()).isGreaterThan(10);
    }
}
