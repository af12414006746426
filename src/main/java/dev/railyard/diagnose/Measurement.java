package dev.railyard.diagnose;

/** One number a tool's output stated (or that follows from it), with its unit: "busbw at 8589934592 B" 260.03 GB/s. */
public record Measurement(String name, double value, String unit) {}
