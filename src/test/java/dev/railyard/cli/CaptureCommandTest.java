package dev.railyard.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** railyard capture of this machine, to standard output. */
class CaptureCommandTest {

    @Test
    void outDashWritesTheArchiveToStdoutAndTheSummaryToStderr(@TempDir Path dir) throws Exception {
        CaptureCommand cmd = new CaptureCommand();
        ByteArrayOutputStream archive = new ByteArrayOutputStream();
        cmd.stdout = archive;
        CommandLine cl = new CommandLine(cmd);
        StringWriter out = new StringWriter(), err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute("--out", "-", "--redact")).as(err.toString()).isZero();
        assertThat(out.toString()).as("stdout carries the archive only").isEmpty();
        assertThat(err.toString()).contains("wrote the archive to standard output").contains("under railyard-capture/")
                .contains("values redacted");
        byte[] bytes = archive.toByteArray();
        assertThat(bytes.length).isGreaterThan(100);
        assertThat(bytes[0] & 0xff).as("gzip magic").isEqualTo(0x1f);
        assertThat(bytes[1] & 0xff).isEqualTo(0x8b);
        Path tgz = Files.write(dir.resolve("n.tgz"), bytes);
        Process tar = new ProcessBuilder("tar", "-tzf", tgz.toString()).redirectErrorStream(true).start();
        String listing = new String(tar.getInputStream().readAllBytes());
        assertThat(tar.waitFor()).isZero();
        assertThat(listing.lines()).allMatch(l -> l.startsWith("railyard-capture/")).contains("railyard-capture/railyard/CAPTURE.txt");
    }

    @Test
    void anExistingFileIsNotOverwrittenWithoutForce(@TempDir Path dir) throws IOException {
        Path existing = Files.writeString(dir.resolve("n.tgz"), "keep me");
        CommandLine cl = Main.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute("capture", "--out", existing.toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("already exists");
        assertThat(Files.readString(existing)).isEqualTo("keep me");
    }
}
