package dev.railyard.report;

import dev.railyard.model.ValidationReport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes one validate run's report directory. Placeholder until the HTML, Markdown and JUnit forms land: JSON only.
 */
public final class ValidationReportFiles {

    private ValidationReportFiles() {
    }

    /** Writes the report files into {@code dir} (created if needed) and returns their paths. */
    public static List<Path> write(ValidationReport report, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path json = dir.resolve("report.json");
        Files.writeString(json, Json.write(report));
        return List.of(json);
    }
}
