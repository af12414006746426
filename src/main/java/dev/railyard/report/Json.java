package dev.railyard.report;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.railyard.platform.JsonMapperFactory;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * JSON for scripts (docs/json.md). Every document is an object whose first key is {@code schemaVersion}. A reading is
 * always an object with a {@code state}: {"state": "present", "value": ...}, {"state": "absent", "reason": "why"} or
 * {"state": "failed", "path": "...", "cause": "..."}, so a field keeps one type whatever the machine had.
 */
public final class Json {

    /** Raised when a field changes meaning or type, or one is removed; adding a field keeps it. */
    public static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper MAPPER = JsonMapperFactory.shared();

    private Json() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** What a record document is written as: {"schemaVersion": N} and then the record's own fields. */
    @JsonPropertyOrder({"schemaVersion"})
    private record Document(int schemaVersion, @JsonUnwrapped Object body) {}

    /** A top-level document: {@code value}'s fields after {"schemaVersion": N}. */
    public static String write(Object value) {
        try {
            // a record is written in one pass; anything else goes through a tree first, to check it is an object
            if (value.getClass().isRecord()) return MAPPER.writeValueAsString(new Document(SCHEMA_VERSION, value));
            JsonNode body = MAPPER.valueToTree(value);
            if (!(body instanceof ObjectNode fields)) {
                throw new IllegalArgumentException("a JSON document is an object, not " + body.getNodeType());
            }
            ObjectNode doc = MAPPER.createObjectNode().put("schemaVersion", SCHEMA_VERSION);
            doc.setAll(fields);
            return MAPPER.writeValueAsString(doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
