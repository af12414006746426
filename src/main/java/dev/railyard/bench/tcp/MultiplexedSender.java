package dev.railyard.bench.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Fills several streams from one thread with a selector, as iperf3 does: on a machine with fewer cores than
 * streams, a thread per stream mostly buys context switches.
 */
final class MultiplexedSender {

    private MultiplexedSender() {
    }

    static void send(List<BandwidthClient.Stream> streams, int msgSize, CountDownLatch go) {
        ByteBuffer payload = ByteBuffer.allocateDirect(msgSize);
        long[] totals = new long[streams.size()];
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < streams.size(); i++) {
                streams.get(i).channel.configureBlocking(false);
                // Each stream keeps its own position in the one shared payload.
                streams.get(i).channel.register(selector, SelectionKey.OP_WRITE, new int[]{i});
            }
            ByteBuffer[] views = new ByteBuffer[streams.size()];
            for (int i = 0; i < views.length; i++) views[i] = payload.duplicate();
            go.await();
            int live = streams.size();
            while (!streams.getFirst().stop && live > 0) {
                selector.select(20);
                for (SelectionKey key : selector.selectedKeys()) {
                    int i = ((int[]) key.attachment())[0];
                    BandwidthClient.Stream s = streams.get(i);
                    try {
                        totals[i] += fill(s, views[i]);
                        s.sent.setOpaque(totals[i]);
                    } catch (IOException e) {
                        s.fail(e);
                        key.cancel();
                        live--;
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException e) {
            for (BandwidthClient.Stream s : streams) s.fail(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // The selector is closed here, so the channels may go back to blocking mode for the reply.
        for (int i = 0; i < streams.size(); i++) {
            streams.get(i).sent.set(totals[i]);
            streams.get(i).doneSending.countDown();
        }
        for (BandwidthClient.Stream s : streams) s.finish();
    }

    /** Writes until the socket buffer is full or a few messages went out (so no stream starves the others). */
    private static long fill(BandwidthClient.Stream s, ByteBuffer view) throws IOException {
        long written = 0;
        for (int i = 0; i < 8; i++) {
            if (!view.hasRemaining()) view.clear();
            int n = s.channel.write(view);
            if (n == 0) return written;
            written += n;
        }
        return written;
    }
}
