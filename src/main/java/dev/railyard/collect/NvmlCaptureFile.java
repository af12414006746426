package dev.railyard.collect;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.Reading;
import dev.railyard.platform.JsonMapperFactory;

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

    /** A newer Railyard's extra fields are left unread, not refused. */
    private static final ObjectReader READER = JsonMapperFactory.shared().reader()
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private NvmlCaptureFile() {
    }

    static String write(GpuInventory gpus) {
        ObjectMapper mapper = JsonMapperFactory.shared();
        ObjectNode doc = mapper.createObjectNode().put("schemaVersion", VERSION);
        doc.setAll((ObjectNode) mapper.valueToTree(gpus));
        try {
            return mapper.writeValueAsString(doc) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The saved inventory, or failed with the file and why it could not be read back. */
    static Reading<GpuInventory> parse(String json) {
        try {
            JsonNode doc = READER.readTree(json);
            int version = doc.path("schemaVersion").asInt(-1);
            if (version != VERSION) {
                return Reading.failed(FILE, "schemaVersion " + version + ", this Railyard reads " + VERSION);
            }
            return Reading.of(READER.treeToValue(doc, GpuInventory.class));
        } catch (IOException | IllegalArgumentException e) {
            return Reading.failed(FILE, e.getMessage().lines().findFirst().orElse("unreadable"));
        }
    }
}
