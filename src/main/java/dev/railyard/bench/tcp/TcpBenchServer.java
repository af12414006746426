package dev.railyard.bench.tcp;

import dev.railyard.platform.IoErrors;
import dev.railyard.model.Rates;

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
 * Latency: one platform thread per connection doing blocking reads, so each message costs one read() syscall with no
 * poller hop in between (a virtual thread would park and wake through the poller). Bandwidth: all streams are read
 * by one selector thread ({@link ByteCountingReceiver}).
 */
public final class TcpBenchServer implements AutoCloseable {

    private final ServerSocketChannel listener;
    private final Consumer<String> log;
    private final ByteCountingReceiver receiver;

    private TcpBenchServer(ServerSocketChannel listener, Consumer<String> log) throws IOException {
        this.listener = listener;
        this.log = log;
        this.receiver = new ByteCountingReceiver();
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
            log.accept("rejected " + peer(first) + ": " + IoErrors.describe(e));
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
            log.accept("connection from " + peer + " ended: " + IoErrors.describe(e));
        }
    }

    /** The receiver thread counts; this connection's thread only waits and sends the count back. */
    private void countBytes(SocketChannel ch, String peer) throws IOException {
        ByteCountingReceiver.Counted counted;
        try {
            counted = receiver.count(ch).join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
        // Still non-blocking (registered with the receiver until its next select): 16 bytes fit the empty send buffer.
        SessionHeader.writeFully(ch, ByteBuffer.allocate(16).putLong(counted.bytes()).putLong(counted.nanos()).flip());
        double seconds = counted.nanos() / 1e9;
        log.accept("bandwidth stream from %s: %d bytes in %.2f s, %.2f Gbits/sec"
                .formatted(peer, counted.bytes(), seconds, Rates.gbits(counted.bytes(), seconds)));
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
            return ch.getRemoteAddress() instanceof InetSocketAddress a ? IoErrors.address(a) : "?";
        } catch (IOException e) {
            return "?";
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        receiver.close();
    }
}
