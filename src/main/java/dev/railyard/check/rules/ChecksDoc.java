package dev.railyard.check.rules;

import dev.railyard.model.CheckId;

/** docs/checks.md, written from the catalog: one section per check ID, in the order of {@link CheckId}. */
public final class ChecksDoc {

    private ChecksDoc() {
    }

    public static String markdown() {
        StringBuilder out = new StringBuilder("""
                # Checks

                Every check ID Railyard reports, with its rule: what it reads, its thresholds, which severity the
                facts give, and the fix a finding carries. "Judged by" names where the judgement lives: a `*Rule`
                class is the one judge that `check`, `bench`, `validate`, the agent and `diagnose` all call for that
                ID; other IDs are still judged in the classes named. A FAULT changes a component's health in the
                agent; ADVICE is listed and never degrades it.

                This file is written from the catalog (`Rulebook`); `ChecksDocTest` fails when the two differ.

                """);
        for (Rule r : Rulebook.all()) {
            out.append("## ").append(r.id().id()).append("\n\n")
                    .append(r.id().firesWhen()).append(".\n\n")
                    .append("- Reads: ").append(r.reads()).append('\n')
                    .append("- Thresholds: ").append(r.thresholds()).append('\n')
                    .append("- Severity: ").append(r.severities()).append('\n')
                    .append("- Fix: ").append(r.fix()).append('\n')
                    .append("- Health: ").append(r.meaning() == CheckId.Meaning.ADVICE ? "ADVICE" : "FAULT").append('\n')
                    .append("- Judged by: ").append(r.judge()).append("\n\n");
        }
        return out.toString().stripTrailing() + "\n";
    }
}
