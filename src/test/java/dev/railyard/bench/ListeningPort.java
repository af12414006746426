package dev.railyard.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Waits until a server listens on a TCP port, by reading the kernel's socket tables (/proc/net/tcp, tcp6) rather
 * than connecting: a probe connection would count as a client to a one-shot server (iperf3 -1) and end it.
 */
public final class ListeningPort {

    private static final String LISTEN = "0A";

    private ListeningPort() {
    }

    /** True once something listens on {@code port}; false if {@code limit} passes first or the server ended. */
    public static boolean await(int port, Duration limit, BooleanSupplier serverEnded) throws IOException {
        long deadline = System.nanoTime() + limit.toNanos();
        String hexPort = ":" + String.format(Locale.ROOT, "%04X", port);
        while (System.nanoTime() < deadline) {
            if (listening(Path.of("/proc/net/tcp"), hexPort) || listening(Path.of("/proc/net/tcp6"), hexPort)) return true;
            if (serverEnded.getAsBoolean()) return false;
            Thread.yield();
        }
        return false;
    }

    private static boolean listening(Path table, String hexPort) throws IOException {
        if (!Files.isReadable(table)) return false;
        List<String> lines = Files.readAllLines(table);
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            String[] f = line.trim().split("\\s+");
            // sl local_address rem_address st ...: the local address ends in the port, st 0A is LISTEN
            if (f.length > 3 && f[1].endsWith(hexPort) && f[3].equals(LISTEN)) return true;
        }
        return false;
    }
}
