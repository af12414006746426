package dev.railyard.cluster;

import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Quoted words go through a real /bin/sh and come out as the same words, whatever characters they hold. */
class PosixShellWordsTest {

    private static final String ALPHABET = "'\"\\$` \t\n;&|*?~#()<>!{}[]=%-abcàé";

    @Test
    void realShellSeesTheSameWords() {
        Random random = new Random(20261123);
        for (int run = 0; run < 150; run++) {
            List<String> words = new ArrayList<>();
            int n = 1 + random.nextInt(5);
            for (int i = 0; i < n; i++) {
                StringBuilder w = new StringBuilder();
                int len = random.nextInt(13);
                for (int c = 0; c < len; c++) w.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
                words.add(w.toString());
            }
            List<String> argv = new ArrayList<>(List.of("printf", "%s\\0"));
            argv.addAll(words);
            // the way sshd runs a command: the user's shell with -c and the command line as one string
            CommandRunner.Result r = CommandRunner.system().run(List.of("/bin/sh", "-c", PosixShellWords.join(argv)),
                    Duration.ofSeconds(10));
            assertThat(r.ok()).as(r.stderr()).isTrue();
            StringBuilder expected = new StringBuilder();
            words.forEach(w -> expected.append(w).append('\0'));
            assertThat(r.stdout()).as("words %s", words).isEqualTo(expected.toString());
        }
    }

    @Test
    void nulCannotBePassed() {
        assertThatThrownBy(() -> PosixShellWords.quote("a\0b")).isInstanceOf(IllegalArgumentException.class);
    }
}
