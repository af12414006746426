package dev.railyard.cluster;

import dev.railyard.cli.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Everyday network failures are a prerequisite failing (exit 3) that names the peer and the OS's words, never a bug
 * (exit 4): a TCP benchmark client aimed at a namespace host whose links are down (a powered-off peer), as this
 * machine's kernel answers it ("No route to host" once ARP gives up).
 */
@Tag("tools")
class NetworkErrorsOverNamespacesTest {

    static TestCluster cluster;

    @BeforeAll
    static void up() {
        cluster = TestCluster.up("neterr", 2);
        cluster.verb("kill-host", "h2");
    }

    @AfterAll
    static void down() {
        if (cluster != null) cluster.close();
    }

    @Test
    void aBenchmarkClientAimedAtAPoweredOffPeerIsExitThreeNamingThePeer() {
        String peer = cluster.node("h2").address();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute("bench", "tcp", "client", peer, "--port", "5201", "--duration", "1s");
        assertThat(code).as(err.toString()).isEqualTo(3);
        assertThat(err.toString()).contains(peer + ":5201").containsIgnoringCase("no route to host")
                .doesNotContain("internal error");
    }
}
