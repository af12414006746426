package dev.railyard.bench.tcp;

import dev.railyard.model.BandwidthInterval;
import dev.railyard.model.BandwidthResult;
import dev.railyard.model.Rates;
import dev.railyard.model.ReceiverReport;
import dev.railyard.model.StopReason;

import dev.railyard.model.Reading;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * N streams, one platform thread each, writing one direct buffer with blocking writes (as iperf3 does with one
 * thread per stream). The calling thread samples the byte counters every interval and reports progress.
 */
public final class BandwidthClient {

    /** How long to wait for the server's byte count after half-closing; it only has to drain its socket buffer. */
    private static final int REPLY_TIMEOUT_MILLIS = 10_000;

    private final ClientSettings settings;
    private final StopSignal signal;
    private final Consumer<BandwidthInterval> progress;

    public BandwidthClient(ClientSettings settings, StopSignal signal, Consumer<BandwidthInterval> progress) {
        this.settings = settings;
        this.signal = signal;
        this.progress = progress;
    }

    public BandwidthResult run() throws IOException {
        List<SocketChannel> channels = new ArrayList<>();
        try {
            for (int i = 0; i < settings.streams(); i++) channels.add(Connections.open(settings));
        } catch (IOException e) {
            for (SocketChannel ch : channels) ch.close();
            throw e;
        }
        List<Stream> streams = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        for (SocketChannel ch : channels) streams.add(new Stream(ch));
        if (streams.size() == 1) {
            Stream only = streams.getFirst();
            only.thread = Thread.ofPlatform().name("bench-tcp-stream").daemon().start(() -> only.send(settings.msgSize(), go));
        } else {
            Thread sender = Thread.ofPlatform().name("bench-tcp-streams").daemon()
                    .start(() -> MultiplexedSender.send(streams, settings.msgSize(), go));
            for (Stream s : streams) s.thread = sender;
        }
        long start = System.nanoTime();
        go.countDown();
        List<BandwidthInterval> intervals = new ArrayList<>();
        StopReason stop = sample(streams, start, intervals);
        long end = System.nanoTime();
        Reading<ReceiverReport> receiver = collectReceiver(streams);
        long sent = streams.stream().mapToLong(s -> s.sent.get()).sum();
        double seconds = (end - start) / 1e9;
        if (stop.kind() != StopReason.Kind.PEER_LOST) {
            String lost = firstError(streams);
            if (lost != null) stop = new StopReason(StopReason.Kind.PEER_LOST, lost);
        }
        return new BandwidthResult(settings.server().getHostString(), settings.server().getPort(), settings.streams(),
                settings.msgSize(), seconds, intervals, sent, Rates.gbits(sent, seconds), receiver, stop);
    }

    private StopReason sample(List<Stream> streams, long start, List<BandwidthInterval> intervals) {
        long intervalNanos = settings.interval().toNanos();
        long end = settings.deadlineFrom(start);
        long mark = start;
        long markBytes = 0;
        while (true) {
            long next = Math.min(mark + intervalNanos, end);
            StopReason stop = waitUntil(next, streams);
            boolean last = stop != null || next >= end;
            // Writers finish their current write before they see the flag: wait, so the last interval has it all.
            if (last) stopSending(streams);
            long now = System.nanoTime();
            long bytes = streams.stream().mapToLong(s -> s.sent.get()).sum();
            if (now > mark) {
                BandwidthInterval iv = BandwidthInterval.of((mark - start) / 1e9, (now - start) / 1e9, bytes - markBytes);
                intervals.add(iv);
                progress.accept(iv);
            }
            mark = now;
            markBytes = bytes;
            if (stop != null) return stop;
            if (last) return StopReason.of(StopReason.Kind.DURATION);
        }
    }

    private static void stopSending(List<Stream> streams) {
        for (Stream s : streams) s.stop = true;
        for (Stream s : streams) {
            try {
                if (!s.doneSending.await(REPLY_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
                    s.error.compareAndSet(null, "stream blocked: the server stopped reading");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Sleeps in short slices so Ctrl-C and a lost peer end the run within a few tens of milliseconds. */
    private StopReason waitUntil(long deadline, List<Stream> streams) {
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) return null;
            if (signal.stopped()) return StopReason.of(StopReason.Kind.INTERRUPTED);
            if (streams.stream().allMatch(s -> s.finished)) {
                String err = firstError(streams);
                return new StopReason(StopReason.Kind.PEER_LOST, err == null ? "all streams ended" : err);
            }
            LockSupport.parkNanos(Math.min(left, 20_000_000));
        }
    }

    private static String firstError(List<Stream> streams) {
        for (Stream s : streams) {
            if (s.error.get() != null) return s.error.get();
        }
        return null;
    }

    private static Reading<ReceiverReport> collectReceiver(List<Stream> streams) {
        long bytes = 0;
        long maxNanos = 0;
        String missing = null;
        for (Stream s : streams) {
            s.awaitEnd();
            if (s.receivedBytes < 0) {
                missing = s.error.get() == null ? "server sent no byte count" : s.error.get();
            } else {
                bytes += s.receivedBytes;
                maxNanos = Math.max(maxNanos, s.receiverNanos);
            }
        }
        if (missing != null) return Reading.absent("server byte count missing: " + missing);
        return Reading.of(ReceiverReport.of(bytes, maxNanos / 1e9));
    }

    /** One connection, its counters, and the thread that fills it (shared when streams are multiplexed). */
    static final class Stream {
        final AtomicLong sent = new AtomicLong();
        final AtomicReference<String> error = new AtomicReference<>();
        volatile Thread thread;
        final SocketChannel channel;
        volatile boolean stop;
        volatile boolean finished;
        final CountDownLatch doneSending = new CountDownLatch(1);
        long receivedBytes = -1;
        long receiverNanos;

        Stream(SocketChannel ch) {
            channel = ch;
        }

        void fail(IOException e) {
            error.compareAndSet(null, e.getMessage() == null ? e.toString() : e.getMessage());
        }

        /** A write blocked on a peer that stopped reading never returns by itself: closing the channel ends it. */
        void awaitEnd() {
            try {
                if (!thread.join(java.time.Duration.ofMillis(REPLY_TIMEOUT_MILLIS + 1000))) {
                    error.compareAndSet(null, "stream blocked: the server stopped reading");
                    channel.close();
                    thread.join();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                error.compareAndSet(null, e.toString());
            }
        }

        /** One stream, one thread, blocking writes: the fewest system calls per byte. */
        void send(int msgSize, CountDownLatch go) {
            ByteBuffer buf = ByteBuffer.allocateDirect(msgSize);
            long total = 0;
            SocketChannel ch = channel;
            try (ch) {
                go.await();
                while (!stop) {
                    buf.clear();
                    while (buf.hasRemaining()) total += ch.write(buf);
                    sent.setOpaque(total);
                }
                sent.set(total);
                doneSending.countDown();
                ch.shutdownOutput();
                readReply(ch);
            } catch (IOException e) {
                fail(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                sent.set(total);
                doneSending.countDown();
                finished = true;
            }
        }

        /** After the last write: half-close and read the server's count, in blocking mode. */
        void finish() {
            try (channel) {
                channel.configureBlocking(true);
                channel.shutdownOutput();
                readReply(channel);
            } catch (IOException e) {
                fail(e);
            } finally {
                finished = true;
            }
        }

        void readReply(SocketChannel ch) throws IOException {
            ch.socket().setSoTimeout(REPLY_TIMEOUT_MILLIS);
            // The socket adaptor's stream honours SO_TIMEOUT, a blocking channel read would wait forever.
            InputStream in = ch.socket().getInputStream();
            try {
                DataInputStream data = new DataInputStream(in);
                receivedBytes = data.readLong();
                receiverNanos = data.readLong();
            } catch (SocketTimeoutException e) {
                throw new IOException("no byte count from the server within " + REPLY_TIMEOUT_MILLIS / 1000 + " s", e);
            }
        }
    }
}
