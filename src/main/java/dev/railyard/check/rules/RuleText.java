package dev.railyard.check.rules;

import dev.railyard.model.CheckId;

/**
 * The catalog entry of an ID whose judgement still sits in one judge class, not in a rule class of its own: what it
 * reads, its thresholds, severities and fix, as that class applies them, and the class's name.
 */
record RuleText(CheckId id, String reads, String thresholds, String severities, String fix, String judge)
        implements Rule {
}
