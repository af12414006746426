package dev.railyard.platform;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A second process for the lock tests: takes a node's benchmark lock (args: lock directory, node, validate run or
 * "-" for a benchmark run by hand, what it runs), or with {@code --cluster DIR CLUSTER RUN} validate's lock of a
 * cluster; says so, and holds it until stdin closes. With {@code --churn DIR NODE RUN N} it takes and lets go of a
 * step's lock N times and says "ok".
 */
public final class NodeLockHolder {

    private NodeLockHolder() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--churn")) {
            // a step of one run taking and letting go of the node's lock again and again, as a run's server and
            // client do side by side: any refusal is the failure
            for (int i = 0; i < Integer.parseInt(args[4]); i++) {
                NodeLock.acquire("bench tcp client", Optional.of(args[3]), Path.of(args[1]), args[2]).close();
            }
            System.out.println("ok");
            return;
        }
        AutoCloseable held;
        if (args[0].equals("--cluster")) {
            held = ValidateLock.acquire(args[2], args[3], Path.of(args[1]));
        } else {
            Optional<String> run = args[2].equals("-") ? Optional.empty() : Optional.of(args[2]);
            held = NodeLock.acquire(args[3], run, Path.of(args[0]), args[1]);
        }
        try (held) {
            System.out.println("held");
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for the test to close our stdin
            }
        }
    }
}
