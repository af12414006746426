package dev.railyard.bench.fio;

import dev.railyard.model.FioJob;
import dev.railyard.model.FioResult;

import dev.railyard.diagnose.FakeTools;
import dev.railyard.model.RailyardException;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FioRunnerTest {

    @Test
    void seed001SequentialJobsWithJsonOutput() {
        assertThat(FioRunner.argv(FioRunner.Pattern.WRITE, Path.of("/tmp/testfile"), "1G", 10)).containsExactly(
                "fio", "--name=write_test", "--filename=/tmp/testfile", "--size=1G", "--rw=write", "--bs=1M",
                "--direct=1", "--numjobs=1", "--runtime=10", "--group_reporting", "--output-format=json");
        assertThat(FioRunner.argv(FioRunner.Pattern.READ, Path.of("/tmp/testfile"), "1G", 10))
                .contains("--name=read_test", "--rw=read");
    }

    @Test
    void runsTheProgramAndParsesItsJson(@TempDir Path dir) {
        FakeTools.install(dir, "fio", "fio/virtualclient-fio-3.26-json-windowsaio-randwrite.txt");
        FioResult r = new FioRunner(FakeTools.in(dir)).run(FioRunner.Pattern.WRITE, dir.resolve("f"), "1G", 10);
        assertThat(r.jobs().getFirst().write().bandwidthKiBps()).isEqualTo(8668);
    }

    @Test
    void missingBinaryNamesThePackages(@TempDir Path dir) {
        assertThatThrownBy(() -> new FioRunner(FakeTools.in(dir)).run(FioRunner.Pattern.READ, dir, "1M", 1))
                .isInstanceOfSatisfying(RailyardException.MissingPrerequisite.class,
                        e -> assertThat(e.hint()).contains("apt-get install -y fio").contains("dnf install -y fio"));
    }

    @Test
    @Tag("tools")
    void realFioOnATempFile(@TempDir Path dir) {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/fio")), "fio not installed");
        // O_DIRECT is not allowed on every filesystem (tmpfs refuses it), so this test runs the job without it.
        CommandRunner noDirect = (argv, t, cwd, env) -> CommandRunner.system().run(
                argv.stream().filter(a -> !a.equals("--direct=1")).toList(), t, cwd, env);
        FioResult r = new FioRunner(noDirect).run(FioRunner.Pattern.WRITE, dir.resolve("testfile"), "16M", 1);
        FioJob job = r.jobs().getFirst();
        assertThat(job.name()).isEqualTo("write_test");
        assertThat(job.write().bandwidthKiBps()).isPositive();
        assertThat(job.write().ioBytes()).isEqualTo(16L * 1024 * 1024);
    }
}
