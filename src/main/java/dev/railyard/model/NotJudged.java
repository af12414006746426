package dev.railyard.model;

/**
 * An area a check run could not judge at all (no GPU, no RDMA device, no spec), and why. Reported next to the
 * findings so a short list of PASSes is not read as "all of it is fine".
 */
public record NotJudged(String area, String reason) {

    public NotJudged {
        if (area == null || reason == null) throw new IllegalArgumentException("a NotJudged has no null fields");
    }
}
