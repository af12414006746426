package dev.railyard.diagnose;

import dev.railyard.model.Severity;

import java.util.regex.Pattern;

/** One troubleshooting row as data: a line matching {@code pattern} means {@code cause}; {@code fix} repairs it. */
public record DiagnosisRule(String id, Pattern pattern, Severity severity, String cause, String fix, String source) {

    public static DiagnosisRule of(String id, String regex, Severity severity, String cause, String fix, String source) {
        return new DiagnosisRule(id, Pattern.compile(regex), severity, cause, fix, source);
    }
}
