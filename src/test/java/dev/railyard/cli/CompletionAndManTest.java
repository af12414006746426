package dev.railyard.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The completion script run by bash itself, and the manual page checked by groff, as installed by README's steps. */
class CompletionAndManTest {

    private static String run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertThat(cl.execute(args)).isZero();
        return out.toString();
    }

    private record Proc(int code, String out, String err) {}

    private static Proc exec(List<String> argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Proc(p.exitValue(), out, err);
    }

    private static boolean onPath(String tool) {
        return System.getenv("PATH") != null && java.util.Arrays.stream(System.getenv("PATH").split(":"))
                .anyMatch(d -> Files.isExecutable(Path.of(d, tool)));
    }

    /** What bash's completion offers after {@code line} (the cursor at its end). */
    private static String complete(Path script, String line) throws IOException, InterruptedException {
        String words = line.endsWith(" ") ? line + "''" : line;
        String program = "source " + script + " 2>/dev/null; COMP_LINE='" + line + "'; COMP_POINT=${#COMP_LINE}; "
                + "COMP_WORDS=(" + words + "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
                + "_complete_railyard 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"";
        Proc p = exec(List.of("bash", "-c", program));
        assertThat(p.code()).as(p.err()).isZero();
        return p.out();
    }

    @Test
    void bashCompletesCommandsSubcommandsAndOptions(@TempDir Path dir) throws Exception {
        assumeTrue(onPath("bash"));
        Path script = Files.writeString(dir.resolve("railyard"), run("completion"));
        assertThat(exec(List.of("bash", "-n", script.toString())).code()).isZero();
        assertThat(complete(script, "railyard ch").lines()).containsExactly("check");
        assertThat(complete(script, "railyard bench r").lines()).contains("rdma");
        assertThat(complete(script, "railyard check --for").lines()).containsExactly("--format");
        assertThat(complete(script, "railyard capture --re").lines()).containsExactly("--redact");
    }

    @Test
    void theManPageHasEveryCommandAndOptionAndGroffReadsItWithoutWarnings(@TempDir Path dir) throws Exception {
        String page = run("man");
        for (CommandLine c : HelpPagesTest.allCommands().values()) {
            if (c.getParent() != null) assertThat(page).contains(".SS \"" + ManPage.escape(c.getCommandSpec().qualifiedName()) + "\"");
            for (OptionSpec o : c.getCommandSpec().options()) {
                if (!o.hidden() && !o.usageHelp() && !o.versionHelp()) assertThat(page).contains(ManPage.escape(o.longestName()));
            }
        }
        assertThat(page).contains(".SH EXIT STATUS").contains("railyard check \\-\\-spec cluster.yaml \\-\\-only rdma.");
        assumeTrue(onPath("groff"));
        Path file = Files.writeString(dir.resolve("railyard.1"), page);
        Proc groff = exec(List.of("groff", "-man", "-Tutf8", "-ww", "-z", file.toString()));
        assertThat(groff.code()).isZero();
        assertThat(groff.err()).as("groff warnings").isEmpty();
    }
}
