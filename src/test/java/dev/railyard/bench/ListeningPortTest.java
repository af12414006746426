package dev.railyard.bench;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The tool tests' wait for a server, checked against a real listening socket (the tools are not always here). */
class ListeningPortTest {

    @Test
    void seesAListeningSocketAndNotAClosedOne() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
            assertThat(ListeningPort.await(port, Duration.ofSeconds(10), () -> false)).isTrue();
        }
        assertThat(ListeningPort.await(port, Duration.ofSeconds(10), () -> true)).as("the server ended").isFalse();
    }
}
