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
        Run r = run(System.in, "diagnose", sample(dir,
                "ib-tools/issue-network-operator-249-ibstat-State-Down-PhysLinkUp-VF.txt").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("Recognised: ibstat", "FAIL    rdma.port.state mlx5_7:1", "fix: rdma link show mlx5_7/1",
                "opensm", "Verdict: FAIL");
    }

    @Test
    void aDownPortInAnIbstatPasteWarnsAsTheNodeCheckDoes(@TempDir Path dir) throws Exception {
        Run r = run(System.in, "diagnose", sample(dir, "ib-tools/gpud-ibstat-h100-some-down-polling-roce.txt").toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("WARN    rdma.port.state mlx5_11:1", "no link on mlx5_11 port 1", "Verdict: WARN");
    }

    @Test
    void aFixOfSeveralCommandsIsPrintedOneUnderTheOther(@TempDir Path dir) throws Exception {
        Run r = run(System.in, "diagnose", sample(dir, "kernel-log/xid-dmesg-gpud-xid48-63-94-iso.txt").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("        fix: # when the GPU is idle (or reboot the node instead):\n"
                + "             nvidia-smi -r -i 0000:19:00.0\n");
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

    @Test
    void binaryInputIsRefusedWithoutEvidence(@TempDir Path dir) throws Exception {
        // the JDK's own module image once gave a false FAIL: PORT_INIT inside TRANSPORT_INIT
        Path modules = Path.of(System.getProperty("java.home"), "lib", "modules");
        Run jdk = run(System.in, "diagnose", modules.toString());
        assertThat(jdk.code()).isEqualTo(2);
        assertThat(jdk.err()).contains("not text output");
        assertThat(jdk.out()).isEmpty();
        Run zeros = run(new ByteArrayInputStream(new byte[1 << 20]), "diagnose", "-");
        assertThat(zeros.code()).isEqualTo(2);
        assertThat(zeros.err()).contains("not text output: stdin contains NUL bytes");
    }

    @Test
    void emptyStdinSaysSo() {
        Run r = run(new ByteArrayInputStream(new byte[0]), "diagnose", "-");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("stdin is empty", "2>&1 | railyard diagnose -");
    }

    @Test
    void jsonOnUnrecognisedInputIsStillAnObject() {
        Run r = run(new ByteArrayInputStream("nothing to see here\n".getBytes()), "diagnose", "-", "--format",
                "json");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out().strip()).startsWith("{").endsWith("}")
                .contains("\"recognised\" : false", "not recognised as the output of any supported tool");
    }

    @Test
    void decorationsTakenAwayAreNamed() {
        String pasted = "> **[  5]   0.00-10.00  sec  31.9 GBytes  27.4 Gbits/sec    0             sender**\n"
                + "> [  5]   0.00-10.00  sec  31.9 GBytes  27.4 Gbits/sec                  receiver\n";
        Run r = run(new ByteArrayInputStream(pasted.getBytes()), "diagnose", "-");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Recognised: iperf3 (text)", "Ignored: markdown quote marks, markdown bold",
                "sent 27.40 Gb/s");
    }
}
