package dev.railyard.collect;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.Reading;
import dev.railyard.model.ReadingJson;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * railyard/nvml.json in a capture: the GPU inventory exactly as NVML gave it on the live node, readings and all.
 * nvidia-smi -q -x loses some of it (NVLink state on some drivers, memory used, clock-event reasons as NVML names
 * them), so a captured tree read with --root shows what the live node showed. Only loaded for captures: the live
 * inventory never pays for Jackson here.
 */
final class NvmlCaptureFile {

    static final String FILE = "railyard/nvml.json";
    /** The file's own format version; a capture from a newer Railyard with another version is not guessed at. */
    static final int VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new Jdk8Module())
            .registerModule(ReadingJson.module())
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private NvmlCaptureFile() {
    }

    static String write(GpuInventory gpus) {
        ObjectNode doc = MAPPER.createObjectNode().put("schemaVersion", VERSION);
        doc.setAll((ObjectNode) MAPPER.valueToTree(gpus));
        try {
            return MAPPER.writeValueAsString(doc) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The saved inventory, or failed with the file and why it could not be read back. */
    static Reading<GpuInventory> parse(String json) {
        try {
            JsonNode doc = MAPPER.readTree(json);
            int version = doc.path("schemaVersion").asInt(-1);
            if (version != VERSION) {
                return Reading.failed(FILE, "schemaVersion " + version + ", this Railyard reads " + VERSION);
            }
            return Reading.of(MAPPER.treeToValue(doc, GpuInventory.class));
        } catch (IOException | IllegalArgumentException e) {
            return Reading.failed(FILE, e.getMessage().lines().findFirst().orElse("unreadable"));
        }
    }
}
