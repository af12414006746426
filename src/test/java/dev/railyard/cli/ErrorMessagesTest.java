package dev.railyard.cli;

import dev.railyard.collect.NodeCapture;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The errors a new user meets first, as they read them: one line in plain words, no Java class names, no raw tool
 * output, addresses written the way people write them.
 */
class ErrorMessagesTest {

    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    private void assertPlain() {
        assertThat(err.toString()).doesNotContain("Exception").doesNotContain("java.").doesNotContain("Input length")
                .doesNotContain("tar (child)").doesNotContain("/[");
    }

    @Test
    void aMissingFileSaysSo() {
        assertThat(run("diagnose", dir.resolve("nope.log").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("cannot read " + dir.resolve("nope.log") + ": no such file or directory");
        assertPlain();
    }

    @Test
    void aBinarySpecIsNotText() throws Exception {
        Path spec = Files.write(dir.resolve("cluster.yaml"), new byte[] {'x', (byte) 0xff, (byte) 0xfe, 0, 1});
        assertThat(run("check", "--spec", spec.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("not text (not UTF-8)");
        assertPlain();
    }

    @Test
    void aDirectoryGivenAsAFileSaysSo() {
        assertThat(run("diagnose", dir.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("it is a directory, not a file");
        assertPlain();
    }

    @Test
    void captureIntoAMissingDirectoryNamesTheDirectory() {
        Path out = dir.resolve("no/such/dir/node.tgz");
        assertThat(run("capture", "--out", out.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("the directory " + out.getParent() + " does not exist")
                .contains("mkdir -p");
        assertPlain();
    }

    @Test
    void listeningOnAnAddressOfAnotherHostSaysSo() {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): on no host
        assertThat(run("bench", "tcp", "server", "--bind", "192.0.2.1", "--port", "5299", "--once")).isEqualTo(2);
        assertThat(err.toString()).contains("cannot listen on 192.0.2.1:5299: that address is not on this host")
                .contains("--bind one of this host's addresses");
        assertPlain();
    }

    @Test
    void connectingFromAnAddressOfAnotherHostIsAUsageError() {
        assertThat(run("bench", "tcp", "client", "127.0.0.1", "--port", "9", "--bind", "192.0.2.1", "--duration",
                "1s")).isEqualTo(2);
        assertThat(err.toString()).contains("cannot connect from 192.0.2.1: that address is not on this host");
        assertPlain();
    }

    @Test
    void tarsComplaintsBecomeOneReason() {
        String noDir = """
                tar (child): /nope/x.tgz: Cannot open: No such file or directory
                tar (child): Error is not recoverable: exiting now
                tar: /nope/x.tgz: Wrote only 4096 of 10240 bytes
                tar: Child returned status 2
                tar: Error is not recoverable: exiting now
                """;
        assertThat(NodeCapture.tarReason(tar(noDir))).isEqualTo("no such directory");
        assertThat(NodeCapture.tarReason(tar("tar: ./sys/x: Cannot write: No space left on device\n")))
                .isEqualTo("disk full");
        assertThat(NodeCapture.tarReason(tar("tar: something new\n"))).isEqualTo("tar exited with status 2");
    }

    private static CommandRunner.Result tar(String stderr) {
        return new CommandRunner.Result(java.util.List.of("tar"), 2, "", stderr, false, "");
    }
}
