package dev.railyard.bench.sockperf;

import dev.railyard.bench.ExternalTool;
import dev.railyard.bench.ToolParseException;
import dev.railyard.platform.CommandRunner;

import java.time.Duration;
import java.util.List;

/** Runs sockperf as a fabric bring-up does: a TCP server on the RDMA-network address and a ping-pong client. */
public final class SockperfRunner {

    private final CommandRunner runner;

    public SockperfRunner(CommandRunner runner) {
        this.runner = runner;
    }

    public static List<String> serverArgv(String bindAddress, int port) {
        return List.of("sockperf", "server", "-i", bindAddress, "-p", Integer.toString(port), "--tcp");
    }

    public static List<String> pingPongArgv(String serverAddress, int port, int seconds) {
        return List.of("sockperf", "ping-pong", "-i", serverAddress, "-p", Integer.toString(port), "--tcp", "-t",
                Integer.toString(seconds));
    }

    public SockperfResult runPingPong(String serverAddress, int port, int seconds) {
        CommandRunner.Result r = ExternalTool.SOCKPERF.requireStarted(
                runner.run(pingPongArgv(serverAddress, port, seconds), Duration.ofSeconds(seconds + 30L)));
        if (r.timedOut()) throw new ToolParseException("sockperf", 0, "", "ping-pong timed out");
        // sockperf prints its summary on stdout but its errors on stderr; both go to the parser so an error wins.
        return new SockperfParser().parse(r.stdout() + "\n" + r.stderr());
    }

    /** sockperf's server never exits by itself, so the timeout is how it stops. */
    public CommandRunner.Result runServer(String bindAddress, int port, Duration timeout) {
        return ExternalTool.SOCKPERF.requireStarted(runner.run(serverArgv(bindAddress, port), timeout));
    }
}
