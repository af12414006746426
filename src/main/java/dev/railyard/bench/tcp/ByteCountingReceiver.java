package dev.railyard.bench.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Reads every bandwidth stream of the server on one thread with a selector, as iperf3 does. With several streams
 * on a small machine, a thread per stream makes the receivers fight each other and the senders for the CPUs.
 */
final class ByteCountingReceiver implements AutoCloseable {

    /** Bytes a stream delivered until the client half-closed, and over how long. */
    record Counted(long bytes, long nanos) {
    }

    private record Pending(SocketChannel channel, CompletableFuture<Counted> done) {
    }

    private static final class Count {
        final CompletableFuture<Counted> done;
        final long start = System.nanoTime();
        long bytes;

        Count(CompletableFuture<Counted> done) {
            this.done = done;
        }
    }

    private final Selector selector;
    private final Queue<Pending> pending = new ConcurrentLinkedQueue<>();

    ByteCountingReceiver() throws IOException {
        selector = Selector.open();
        Thread.ofPlatform().name("bench-tcp-receiver").daemon().start(this::loop);
    }

    /** Counts the channel's bytes until end of stream; the channel is left non-blocking and open for the reply. */
    CompletableFuture<Counted> count(SocketChannel ch) {
        CompletableFuture<Counted> done = new CompletableFuture<>();
        pending.add(new Pending(ch, done));
        selector.wakeup();
        return done;
    }

    private void loop() {
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        try {
            while (selector.isOpen()) {
                selector.select();
                register();
                for (SelectionKey key : selector.selectedKeys()) drain(key, buf);
                selector.selectedKeys().clear();
            }
        } catch (ClosedSelectorException closed) {
            // the server was closed: its connection threads see their channels closed too
        } catch (IOException | RuntimeException e) {
            if (!selector.isOpen()) return;
            for (SelectionKey key : selector.keys()) ((Count) key.attachment()).done.completeExceptionally(e);
        }
    }

    private void register() {
        Pending p;
        while ((p = pending.poll()) != null) {
            try {
                p.channel().configureBlocking(false);
                p.channel().register(selector, SelectionKey.OP_READ, new Count(p.done()));
            } catch (IOException e) {
                p.done().completeExceptionally(e);
            }
        }
    }

    private static void drain(SelectionKey key, ByteBuffer buf) {
        Count c = (Count) key.attachment();
        SocketChannel ch = (SocketChannel) key.channel();
        try {
            int n;
            while ((n = ch.read(buf.clear())) > 0) c.bytes += n;
            if (n < 0) {
                key.cancel();
                c.done.complete(new Counted(c.bytes, System.nanoTime() - c.start));
            }
        } catch (IOException e) {
            key.cancel();
            c.done.completeExceptionally(e);
        }
    }

    @Override
    public void close() throws IOException {
        selector.close();
    }
}
