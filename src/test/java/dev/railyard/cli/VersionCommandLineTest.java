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
    void helpOrASubcommandBesideTheVersionStillGetsTheWholeTree() {
        assertThat(Main.commandLineFor("--version", "--help").getSubcommands()).containsKey("validate");
        assertThat(Main.commandLineFor("inventory", "--version").getSubcommands()).containsOnlyKeys("inventory");
        assertThat(Main.commandLineFor().getSubcommands()).containsKey("validate");
    }
}
