package dev.railyard.bench.nccl;

import dev.railyard.model.RailyardException;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** A rendezvous that cannot happen is the user's to fix (2) or the other ranks' absence (3), said in words. */
class TcpRendezvousErrorsTest {

    @Test
    void rankZeroOnAnAddressOfAnotherHostIsAUsageError() {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): on no host
        RailyardException e = catchThrowableOfType(RailyardException.class, () -> TcpRendezvous.join(
                new InetSocketAddress("192.0.2.1", 29500), 0, 2, () -> new byte[128], Duration.ofSeconds(5)));
        assertThat(e.exitCode()).isEqualTo(2);
        assertThat(e.getMessage()).isEqualTo("rank 0 cannot listen on 192.0.2.1:29500: that address is not on this host");
    }

    @Test
    void aRankThatCannotReachRankZeroSaysWhere() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        RailyardException e = catchThrowableOfType(RailyardException.class, () -> TcpRendezvous.join(
                new InetSocketAddress("127.0.0.1", port), 1, 2, () -> new byte[128], Duration.ofMillis(1)));
        assertThat(e.exitCode()).isEqualTo(3);
        assertThat(e.getMessage()).isEqualTo("rank 1 could not reach rank 0 at 127.0.0.1:" + port + " within 1 ms");
        assertThat(e.hint()).contains("start rank 0 too");
    }
}
