package dev.railyard.agent;

import dev.railyard.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Times people read (text, the status page) are whole seconds; JSON, which programs read, keeps the precision. */
class PeopleTimestampsTest {

    private static final String FRACTION = "\\d{2}:\\d{2}:\\d{2}\\.\\d+Z";

    @Test
    void theStatusPageShowsWholeSecondsAndTheApiTheInstant(@TempDir Path dir) throws Exception {
        AgentTree tree = new AgentTree(Files.createDirectories(dir.resolve("root")));
        tree.clock.advance(Duration.ofNanos(123_456_789));
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        AgentState s = agent.tick();
        assertThat(s.startedAt().getNano()).isNotZero();
        String page = StatusPage.render(s);
        assertThat(page).contains(" samples since " + s.startedAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS))
                .doesNotContainPattern(FRACTION);
        assertThat(AgentJson.health(s)).containsPattern(FRACTION);
    }

    @Test
    void inventoryTextShowsWholeSecondsAndItsJsonTheInstant() {
        String tree = "src/test/resources/trees/h200x4-capture";
        CliRun text = CliRun.of("inventory", "--root", tree);
        assertThat(text.out()).containsPattern("  at \\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z\n")
                .doesNotContainPattern(FRACTION);
        CliRun json = CliRun.of("inventory", "--root", tree, "--format", "json");
        assertThat(json.out()).containsPattern("\"takenAt\" ?: ?\"[^\"]*\\.\\d+Z\"");
    }
}
