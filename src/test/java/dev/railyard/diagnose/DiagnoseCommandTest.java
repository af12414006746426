package dev.railyard.diagnose;

import dev.railyard.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class DiagnoseCommandTest {

    private record Run(int code, String out, String err) {}

    private static Run run(InputStream stdin, String... args) {
        InputStream saved = System.in;
        System.setIn(stdin);
        try {
            CommandLine cl = Main.commandLine();
            StringWriter out = new StringWriter(), err = new StringWriter();
            cl.setOut(new PrintWriter(out));
            cl.setErr(new PrintWriter(err));
            int code = cl.execute(args);
            return new Run(code, out.toString(), err.toString());
        } finally {
            System.setIn(saved);
        }
    }

    private static Path sample(Path dir, String resource) throws Exception {
        Path f = dir.resolve("in.txt");
        Files.writeString(f, RealSample.text(resource));
        return f;
    }

    @Test
    void failingIbstatExitsOneWithCauseAndFix(@TempDir Path dir) throws Exception {
        Run r = run(System.in, "diagnose", sample(dir, "ib-tools/gpud-ibstat-h100-some-down-polling-roce.txt").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("Recognised: ibstat", "FAIL    rdma.port.state mlx5_11 port 1", "fix: check the cable", "Verdict: FAIL");
    }

    @Test
    void stdinAndJson() {
        byte[] bytes = RealSample.text("sockperf/seed-001-sockperf-pingpong-tcp.txt").getBytes();
        Run r = run(new ByteArrayInputStream(bytes), "diagnose", "-", "--format", "json");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("\"tool\" : \"SOCKPERF\"", "\"severity\" : \"INFO\"", "21.928");
    }

    @Test
    void unreadableFileAndUnrecognisedInputExitTwo(@TempDir Path dir) throws Exception {
        Run missing = run(System.in, "diagnose", dir.resolve("nope.txt").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("cannot read");
        Path junk = dir.resolve("junk.txt");
        Files.writeString(junk, "nothing to see\n");
        Run unknown = run(System.in, "diagnose", junk.toString());
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("not recognised", "ibv_devinfo");
    }
}
