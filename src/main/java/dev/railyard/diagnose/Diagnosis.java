package dev.railyard.diagnose;

import dev.railyard.model.Severity;

/**
 * One verdict on a tool's output: what is wrong (or fine), why, and the command or step that fixes it. lineNumber
 * (1-based, 0 = the whole output) and line point at the evidence; source says which rule or seed it comes from.
 */
public record Diagnosis(Severity severity, String subject, String cause, String fix, int lineNumber, String line,
                        String source) {}
