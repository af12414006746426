package dev.railyard.check.rules;

import dev.railyard.model.CheckId;

/**
 * One check ID's rule as the catalog shows it: the facts it reads, its thresholds (the spec key and its default),
 * how those facts map to a severity, and its fix. A rule class also holds the typed judgement every path calls
 * (check, bench, validate, the agent's detectors, diagnose); docs/checks.md is written from these texts.
 */
public interface Rule {

    CheckId id();

    /** The model facts it judges ("RdmaPort state, phys_state, link layer; whether the spec binds the port"). */
    String reads();

    /** The thresholds, with the spec key and default where the spec can set one; "none" when none applies. */
    String thresholds();

    /** Which facts give which severity, in one line. */
    String severities();

    /** The fix a finding carries, in words (the exact commands are in the finding). */
    String fix();

    /** The class every path judges this ID through. */
    default String judge() {
        return getClass().getSimpleName();
    }

    /** What a finding of this ID means for a component's health. */
    default CheckId.Meaning meaning() {
        return id().meaning();
    }
}
