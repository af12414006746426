package dev.railyard.agent;

import dev.railyard.report.Json;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * What the agent keeps across restarts: how far in the kernel log an operator's clear reached (the boot it was in,
 * and the newest acknowledged event's kernel time). Written whole to a temporary file and renamed over the old one,
 * so a crash mid-write leaves the old mark, never half a file.
 */
public record AgentStateFile(Path path) {

    public static final int SCHEMA_VERSION = 1;

    /** {@code bootId} is proc/sys/kernel/random/boot_id when the clear happened ("" when unreadable). */
    public record Mark(String bootId, long kernelLogClearedThroughMicros) {}

    /** The mark saved before, or empty when there is none or it cannot be read (then nothing stays cleared). */
    public Optional<Mark> load() {
        if (!Files.isRegularFile(path)) return Optional.empty();
        try {
            var b = Json.mapper().readTree(Files.readString(path));
            if (b.path("schemaVersion").asInt() != SCHEMA_VERSION || !b.path("bootId").isTextual()
                    || !b.path("kernelLogClearedThroughMicros").canConvertToLong()) {
                return Optional.empty();
            }
            return Optional.of(new Mark(b.path("bootId").asText(), b.path("kernelLogClearedThroughMicros").asLong()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Saves the mark; empty when written, else why not (the clear then holds until the agent restarts). */
    public Optional<String> save(Mark mark) {
        try {
            Path dir = path.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".agent-state", ".tmp");
            var body = Json.mapper().createObjectNode().put("schemaVersion", SCHEMA_VERSION).put("bootId", mark.bootId())
                    .put("kernelLogClearedThroughMicros", mark.kernelLogClearedThroughMicros());
            Files.writeString(tmp, Json.mapper().writeValueAsString(body) + "\n");
            try {
                Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("cannot write " + path + ": " + dev.railyard.platform.IoErrors.describe(e)
                    + "; the clear holds until the agent restarts");
        }
    }
}
