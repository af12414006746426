package dev.railyard.cluster;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The nodes of one run whose transport failed after they were reached: when it was noticed, and the transport's own
 * words ("ssh: connect to host 10.0.0.5 port 22: Connection refused"). The first notice of a node stands. From then
 * on its pairs are not run, and none of its failures is blamed on a link or on the node's bandwidth.
 */
final class LostNodes {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    /** One lost node. */
    record Lost(String node, Instant at, String words) {
        /** "h5 lost at 11:02:03Z: ssh: connect to host 10.78.0.5 port 22: Connection refused". */
        String describe() {
            return node + " lost at " + TIME.format(at) + ": " + words;
        }
    }

    private final Map<String, Lost> lost = new ConcurrentHashMap<>();

    /** Records the node as lost unless it already is; returns the record that stands. */
    Lost mark(String node, Instant at, String words) {
        return lost.computeIfAbsent(node, n -> new Lost(n, at, words));
    }

    Optional<Lost> of(String node) {
        return Optional.ofNullable(lost.get(node));
    }

    /** The first of the two ends that is lost. */
    Optional<Lost> either(String a, String b) {
        return of(a).or(() -> of(b));
    }

    /**
     * Whether a transport check says the node is gone: it did not answer (unreachable, timed out, no transport). An
     * interrupted check says nothing about the node.
     */
    static boolean gone(StepResult check) {
        return switch (check.status()) {
            case EXITED -> false;
            case INTERRUPTED -> false;
            case UNREACHABLE, TIMED_OUT, LAUNCH_FAILED -> true;
        };
    }
}
