package dev.railyard.model;

/** What the server says it received on all streams, over its own clock (first header to client half-close). */
public record ReceiverReport(long bytes, double seconds, double gbitsPerSecond) {

    public static ReceiverReport of(long bytes, double seconds) {
        return new ReceiverReport(bytes, seconds, Rates.gbits(bytes, seconds));
    }
}
