package dev.railyard.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code railyard --version} builds the root command alone, and says what the whole command tree says. */
class VersionCommandLineTest {

    private static String run(CommandLine cl, String... args) {
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertThat(cl.execute(args)).isZero();
        return out.toString();
    }

    @Test
    void theVersionAloneBuildsNoSubcommandAndPrintsTheSameLine() {
        for (String flag : new String[]{"--version", "-V"}) {
            CommandLine alone = Main.commandLineFor(flag);
            assertThat(alone.getSubcommands()).as(flag).isEmpty();
            assertThat(run(alone, flag)).startsWith("railyard ").isEqualTo(run(Main.commandLine(), flag));
        }
    }

    @Test
    void theVersionNamesTheGitCommitTheBuildCameFrom() throws Exception {
        String line = run(Main.commandLineFor("--version"), "--version");
        Process git = new ProcessBuilder("git", "rev-parse", "--short=12", "HEAD").start();
        String head = new String(git.getInputStream().readAllBytes()).strip();
        assertThat(git.waitFor()).isZero();
        assertThat(line).matches("railyard \\S+ \\(commit " + head + "(\\+changes)?, Java .+\\)\\R");
    }

    @Test
    void versionAndHelpAreCommandsToo() {
        assertThat(run(Main.commandLineFor("version"), "version")).isEqualTo(run(Main.commandLine(), "--version"));
        assertThat(Main.commandLineFor("version").getSubcommands()).containsOnlyKeys("version");
        String help = run(Main.commandLineFor("help", "check"), "help", "check");
        StringWriter direct = new StringWriter();
        Main.commandLine().getSubcommands().get("check").usage(new PrintWriter(direct));
        assertThat(help).startsWith("Usage: railyard check").isEqualTo(direct.toString());
        assertThat(run(Main.commandLineFor("help", "bench", "nccl"), "help", "bench", "nccl"))
                .startsWith("Usage: railyard bench nccl");
    }

    @Test
    void helpForAnUnknownCommandIsAUsageError() {
        CommandLine cl = Main.commandLineFor("help", "chekc");
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute("help", "chekc")).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("chekc");
    }

    @Test
    void helpOrASubcommandBesideTheVersionStillGetsTheWholeTree() {
        assertThat(Main.commandLineFor("--version", "--help").getSubcommands()).containsKey("validate");
        assertThat(Main.commandLineFor("inventory", "--version").getSubcommands()).containsOnlyKeys("inventory");
        assertThat(Main.commandLineFor().getSubcommands()).containsKey("validate");
    }
}
