package dev.railyard.bench.nccl;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

class TcpRendezvousTest {

    @Test
    void everyRankGetsRankZerosIdAndTheCombinedNumbers() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        InetSocketAddress addr = new InetSocketAddress("127.0.0.1", port);
        byte[] id = new byte[128];
        id[0] = 42;
        id[127] = 7;
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            Future<double[]>[] results = new Future[3];
            for (int r = 0; r < 3; r++) {
                int rank = r;
                results[r] = pool.submit(() -> {
                    try (TcpRendezvous t = TcpRendezvous.join(addr, rank, 3, () -> id, Duration.ofSeconds(20))) {
                        byte[] got = t.uniqueId();
                        double avg = t.averageSeconds(rank + 1.0);      // 1, 2, 3 -> 2
                        long wrong = t.sumWrong(rank == 2 ? 5 : 0);       // -> 5
                        return new double[]{got[0], got[127], avg, wrong, t.reports() ? 1 : 0};
                    }
                });
            }
            for (int r = 0; r < 3; r++) {
                double[] v = results[r].get();
                assertThat(v).containsExactly(42, 7, 2.0, 5, r == 0 ? 1 : 0);
            }
        }
    }
}
