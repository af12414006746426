package dev.railyard.bench.tcp;

/** What a client connection asks the server to do; the byte is the wire value in {@link SessionHeader}. */
public enum TcpMode {
    /** The client streams bytes; the server counts them and reports the count when the client half-closes. */
    BANDWIDTH(1),
    /** The client sends a message; the server echoes it back, until the client closes. */
    LATENCY(2);

    private final int wire;

    TcpMode(int wire) {
        this.wire = wire;
    }

    int wire() {
        return wire;
    }

    static TcpMode fromWire(int value) {
        for (TcpMode m : values()) {
            if (m.wire == value) return m;
        }
        throw new IllegalArgumentException("unknown mode byte " + value);
    }
}
