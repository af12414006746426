package dev.railyard.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.model.Culprit;
import dev.railyard.model.PairTest;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;

import java.io.UncheckedIOException;

/**
 * The report as JSON (report.json): the record's fields through {@link Json}, plus what a script would otherwise
 * recompute: the run's {@code verdict}, and the {@code subject} of every pair test and culprit, the same strings
 * the findings carry. Mix-ins keep the model free of Jackson. docs/validate-report.md describes every field.
 */
public final class ValidationJson {

    private static final ObjectMapper MAPPER = Json.mapper().copy()
            .addMixIn(ValidationReport.class, ReportMixin.class)
            .addMixIn(PairTest.class, SubjectMixin.class)
            .addMixIn(Culprit.class, SubjectMixin.class);

    private ValidationJson() {
    }

    public static String render(ValidationReport report) {
        try {
            return MAPPER.writeValueAsString(report) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    abstract static class ReportMixin {
        @JsonProperty("verdict")
        abstract Severity severity();
    }

    abstract static class SubjectMixin {
        @JsonProperty("subject")
        abstract String subject();
    }
}
