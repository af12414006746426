package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class SameJvmLauncherTest {

    private static final ClusterSpec.Node HERE = new ClusterSpec.Node("here", "127.0.0.1", Optional.empty(), Optional.empty());

    @Test
    void lightStepsRunHereAndTheRestGoToTheChildLauncher() throws Exception {
        AtomicReference<List<String>> ranHere = new AtomicReference<>();
        StubLauncher heavy = new StubLauncher(PairFixtures.spec(2, 1, false), (n, c, s, k, call) -> 1.0);
        try (SameJvmLauncher l = new SameJvmLauncher((args, out, err) -> {
            ranHere.set(args);
            out.print("{\"hostname\": \"here\"}");
            err.print("note");
            return 0;
        }, heavy)) {
            StepResult r = l.run(HERE, List.of("inventory", "--format", "json"), Duration.ofSeconds(10));
            assertThat(r.status()).isEqualTo(StepStatus.EXITED);
            assertThat(r.stdout()).isEqualTo("{\"hostname\": \"here\"}");
            assertThat(r.stderr()).isEqualTo("note");
            assertThat(ranHere.get()).containsExactly("inventory", "--format", "json");
            assertThat(heavy.steps.get()).isZero();
            l.run(HERE, List.of("bench", "gpu", "--format", "json"), Duration.ofSeconds(10));
            assertThat(heavy.steps.get()).isEqualTo(1);
        }
        assertThat(heavy.closed).isTrue();
    }

    @Test
    void aStepPastItsTimeoutIsInterrupted() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        AtomicReference<Boolean> sawInterrupt = new AtomicReference<>(false);
        try (SameJvmLauncher l = new SameJvmLauncher((args, out, err) -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                sawInterrupt.set(true);
            }
            return 0;
        }, new StubLauncher(PairFixtures.spec(2, 1, false), (n, c, s, k, call) -> 1.0))) {
            StepResult r = l.run(HERE, List.of("check"), Duration.ofMillis(200));
            assertThat(r.status()).isEqualTo(StepStatus.TIMED_OUT);
            assertThat(r.completed()).isFalse();
        }
        assertThat(sawInterrupt.get()).isTrue();
    }
}
