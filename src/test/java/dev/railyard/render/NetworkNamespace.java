package dev.railyard.render;

import dev.railyard.platform.CommandRunner;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A throwaway network namespace with loopback up and a veth pair holding 192.0.2.1/24 (TEST-NET-1): the address
 * makes getaddrinfo answer for IPv4, and every other address (the specs' node addresses) is unreachable, so a
 * daemon under test can never reach a real host from a test machine.
 */
final class NetworkNamespace implements AutoCloseable {

    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final CommandRunner runner = CommandRunner.system();
    private final String ip;
    final String name;

    NetworkNamespace(String ip) {
        this.ip = ip;
        this.name = "railyard-test-" + ProcessHandle.current().pid() + "-" + COUNT.incrementAndGet();
        ip("netns", "add", name);
        try {
            ip("-n", name, "link", "set", "lo", "up");
            ip("-n", name, "link", "add", "v0", "type", "veth", "peer", "name", "v1");
            ip("-n", name, "addr", "add", "192.0.2.1/24", "dev", "v0");
            ip("-n", name, "link", "set", "v0", "up");
            ip("-n", name, "link", "set", "v1", "up");
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** argv run inside the namespace. */
    List<String> exec(List<String> argv) {
        List<String> all = new ArrayList<>(List.of(ip, "netns", "exec", name));
        all.addAll(argv);
        return all;
    }

    private void ip(String... args) {
        List<String> argv = new ArrayList<>(List.of(ip));
        argv.addAll(List.of(args));
        CommandRunner.Result r = runner.run(argv, TIMEOUT);
        if (!r.ok()) throw new IllegalStateException(String.join(" ", argv) + ": " + r.stderr() + r.startError());
    }

    @Override
    public void close() {
        runner.run(List.of(ip, "netns", "del", name), TIMEOUT);
    }
}
