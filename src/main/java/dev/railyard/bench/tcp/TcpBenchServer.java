package dev.railyard.bench.tcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The peer of `bench tcp client`: counts bandwidth streams and reports the count back, echoes latency messages.
 * One platform thread per connection doing blocking reads: for ping-pong that is one read() syscall per message,
 * with no poller hop in between (a virtual thread would park and wake through the poller).
 */
public final class TcpBenchServer implements AutoCloseable {

    private static final int BANDWIDTH_BUFFER = 1 << 20;

    private final ServerSocketChannel listener;
    private final Consumer<String> log;

    private TcpBenchServer(ServerSocketChannel listener, Consumer<String> log) {
        this.listener = listener;
        this.log = log;
    }

    public static TcpBenchServer bind(InetSocketAddress address, Consumer<String> log) throws IOException {
        ServerSocketChannel ch = ServerSocketChannel.open();
        ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        ch.bind(address, 64);
        return new TcpBenchServer(ch, log);
    }

    public InetSocketAddress address() throws IOException {
        return (InetSocketAddress) listener.getLocalAddress();
    }

    /** Serves sessions until closed; with {@code once}, returns after the first client's streams are all done. */
    public void serve(boolean once) throws IOException {
        while (listener.isOpen()) {
            SocketChannel first;
            try {
                first = listener.accept();
            } catch (IOException e) {
                if (!listener.isOpen()) return;
                throw e;
            }
            if (!once) {
                Thread.ofPlatform().name("bench-tcp-conn").daemon().start(() -> handle(first, null));
                continue;
            }
            serveSession(first);
            return;
        }
    }

    private void serveSession(SocketChannel first) throws IOException {
        SessionHeader header;
        try {
            header = SessionHeader.read(first);
        } catch (IOException | IllegalArgumentException e) {
            log.accept("rejected " + peer(first) + ": " + e.getMessage());
            first.close();
            return;
        }
        List<Thread> threads = new ArrayList<>();
        threads.add(Thread.ofPlatform().name("bench-tcp-conn").start(() -> handle(first, header)));
        for (int i = 1; i < header.streams(); i++) {
            SocketChannel next = listener.accept();
            threads.add(Thread.ofPlatform().name("bench-tcp-conn").start(() -> handle(next, null)));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void handle(SocketChannel ch, SessionHeader known) {
        String peer = peer(ch);
        try (ch) {
            SessionHeader header = known != null ? known : SessionHeader.read(ch);
            switch (header.mode()) {
                case BANDWIDTH -> countBytes(ch, peer);
                case LATENCY -> echo(ch, header.msgSize(), peer);
            }
        } catch (IOException | IllegalArgumentException e) {
            log.accept("connection from " + peer + " ended: " + e.getMessage());
        }
    }

    private void countBytes(SocketChannel ch, String peer) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(BANDWIDTH_BUFFER);
        long total = 0;
        long start = System.nanoTime();
        int n;
        while ((n = ch.read(buf)) >= 0) {
            total += n;
            buf.clear();
        }
        long nanos = System.nanoTime() - start;
        SessionHeader.writeFully(ch, ByteBuffer.allocate(16).putLong(total).putLong(nanos).flip());
        log.accept("bandwidth stream from %s: %d bytes in %.2f s, %.2f Gbits/sec"
                .formatted(peer, total, nanos / 1e9, Rates.gbits(total, nanos / 1e9)));
    }

    private void echo(SocketChannel ch, int msgSize, String peer) throws IOException {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ByteBuffer buf = ByteBuffer.allocateDirect(msgSize);
        long messages = 0;
        while (true) {
            buf.clear();
            while (buf.hasRemaining()) {
                if (ch.read(buf) < 0) {
                    log.accept("latency session from %s: %d messages of %d B echoed".formatted(peer, messages, msgSize));
                    return;
                }
            }
            buf.flip();
            SessionHeader.writeFully(ch, buf);
            messages++;
        }
    }

    private static String peer(SocketChannel ch) {
        try {
            return String.valueOf(ch.getRemoteAddress());
        } catch (IOException e) {
            return "?";
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
