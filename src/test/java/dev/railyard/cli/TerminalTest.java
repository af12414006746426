package dev.railyard.cli;

import dev.railyard.report.TextStyle;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class TerminalTest {

    @Test
    void aPipeIsPlainAndOneHundredWideUnlessColumnsSaysOtherwise() {
        assertThat(Terminal.style(Map.of(), false, () -> OptionalInt.of(80))).isEqualTo(new TextStyle(100, false));
        assertThat(Terminal.style(Map.of("COLUMNS", "132"), false, OptionalInt::empty)).isEqualTo(new TextStyle(132, false));
    }

    @Test
    void aTerminalGetsColourAndItsOwnWidthButNoColourWins() {
        assertThat(Terminal.style(Map.of("TERM", "xterm"), true, () -> OptionalInt.of(80))).isEqualTo(new TextStyle(80, true));
        assertThat(Terminal.style(Map.of("NO_COLOR", "1"), true, () -> OptionalInt.of(80)).colour()).isFalse();
        assertThat(Terminal.style(Map.of("NO_COLOR", ""), true, () -> OptionalInt.of(80)).colour())
                .as("no-color.org: an empty NO_COLOR does not count").isTrue();
        assertThat(Terminal.style(Map.of("TERM", "dumb"), true, () -> OptionalInt.of(80)).colour()).isFalse();
        assertThat(Terminal.style(Map.of("COLUMNS", "200"), true, () -> OptionalInt.of(80)).width()).isEqualTo(200);
    }

    @Test
    void aNarrowOrNonsenseWidthIsClamped() {
        assertThat(Terminal.style(Map.of("COLUMNS", "20"), false, OptionalInt::empty).width()).isEqualTo(TextStyle.MIN_WIDTH);
        assertThat(Terminal.style(Map.of("COLUMNS", "wide"), false, OptionalInt::empty).width()).isEqualTo(100);
    }
}
