package dev.railyard.bench.iperf3;

import dev.railyard.bench.ExternalTool;
import dev.railyard.bench.ToolParseException;
import dev.railyard.platform.CommandRunner;

import java.time.Duration;
import java.util.List;

/** Runs iperf3 as a fabric bring-up does (server bound to the RDMA-network address, one client), with --json. */
public final class Iperf3Runner {

    private final CommandRunner runner;

    public Iperf3Runner(CommandRunner runner) {
        this.runner = runner;
    }

    /** One-shot server: -1 exits after one client, so nothing is left listening. */
    public static List<String> serverArgv(String bindAddress, int port) {
        return List.of("iperf3", "-s", "-B", bindAddress, "-p", Integer.toString(port), "-1");
    }

    public static List<String> clientArgv(String serverAddress, int port, int seconds, int streams) {
        return List.of("iperf3", "-c", serverAddress, "-p", Integer.toString(port), "-t", Integer.toString(seconds), "-P", Integer.toString(streams),
                "--json");
    }

    public Iperf3Result runClient(String serverAddress, int port, int seconds, int streams) {
        CommandRunner.Result r = ExternalTool.IPERF3.requireStarted(
                runner.run(clientArgv(serverAddress, port, seconds, streams), Duration.ofSeconds(seconds + 30L)));
        if (r.timedOut()) throw new ToolParseException("iperf3", 0, "", "client timed out after " + (seconds + 30) + " s");
        return new Iperf3JsonParser().parse(r.stdout());
    }

    /** Blocks until one client has finished; the caller starts it in the background before the client. */
    public CommandRunner.Result runServer(String bindAddress, int port, Duration timeout) {
        return ExternalTool.IPERF3.requireStarted(runner.run(serverArgv(bindAddress, port), timeout));
    }
}
