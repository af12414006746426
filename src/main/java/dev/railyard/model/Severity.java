package dev.railyard.model;

/** Ordered from best to worst, except UNKNOWN which means "could not be judged" and is never a silent PASS. */
public enum Severity {
    PASS, INFO, UNKNOWN, WARN, FAIL;

    public boolean atLeast(Severity other) {
        return ordinal() >= other.ordinal();
    }

    /** The worse of two severities (for a subject judged on several readings). */
    public Severity max(Severity other) {
        return atLeast(other) ? this : other;
    }
}
