package dev.railyard.report;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import dev.railyard.model.ReadingJson;
import dev.railyard.model.ValueText;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * JSON for scripts (docs/json.md). Every document is an object whose first key is {@code schemaVersion}. A reading is
 * always an object with a {@code state}: {"state": "present", "value": ...}, {"state": "absent", "reason": "why"} or
 * {"state": "failed", "path": "...", "cause": "..."}, so a field keeps one type whatever the machine had.
 */
public final class Json {

    /** Raised when a field changes meaning or type, or one is removed; adding a field keeps it. */
    public static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper MAPPER = create();

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

    private static ObjectMapper create() {
        SimpleModule strings = new SimpleModule("railyard-strings");
        strings.addSerializer(String.class, new CutStringSerializer());
        return new ObjectMapper()
                .registerModule(new Jdk8Module())
                .registerModule(new JavaTimeModule())
                .registerModule(ReadingJson.module())
                .registerModule(strings)
                .registerModule(new SimpleModule("railyard-record-order").setSerializerModifier(new RecordOrder()))
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    }

    /**
     * A record's fields in the record's order, then what Jackson finds through its public is- and get-methods
     * (PciDevice's {@code network}, {@code nvidiaGpu}, {@code rdmaCapable}) by name. Left to itself Jackson lists
     * those in the order reflection lists the methods, which HotSpot does not keep from one run to the next: the
     * same inventory came out in two orders on one machine.
     */
    private static final class RecordOrder extends BeanSerializerModifier {
        @Override
        public List<BeanPropertyWriter> orderProperties(SerializationConfig config, BeanDescription bean,
                                                        List<BeanPropertyWriter> properties) {
            Class<?> type = bean.getBeanClass();
            if (!type.isRecord()) return properties;
            List<String> components = Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).toList();
            List<BeanPropertyWriter> ordered = new ArrayList<>(properties);
            ordered.sort(Comparator.comparingInt((BeanPropertyWriter p) -> {
                int i = components.indexOf(p.getName());
                return i < 0 ? Integer.MAX_VALUE : i;
            }).thenComparing(BeanPropertyWriter::getName));
            return ordered;
        }
    }

    /** Jackson escapes control characters itself; a garbage value of a megabyte is cut with a marker. */
    private static final class CutStringSerializer extends JsonSerializer<String> {
        @Override
        public void serialize(String value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(ValueText.cut(value, ValueText.JSON_MAX));
        }
    }
}
