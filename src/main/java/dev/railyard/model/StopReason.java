package dev.railyard.model;

/** Why a run ended. A run stopped early still carries everything measured until then. */
public record StopReason(Kind kind, String detail) {

    public enum Kind { DURATION, COUNT, INTERRUPTED, PEER_LOST }

    public static StopReason of(Kind kind) {
        return new StopReason(kind, "");
    }

    public boolean complete() {
        return kind == Kind.DURATION || kind == Kind.COUNT;
    }
}
