package dev.railyard.report;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.railyard.model.Reading;
import java.time.Instant;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.Optional;

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
import dev.railyard.model.ReadingJson;
import dev.railyard.model.ValueText;

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

    private static final ObjectMapper MAPPER = create();

    private Json() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * Builds (and caches) the serializers for {@code type} ahead of the first write, and runs one small document
     * through {@link #write} so the write path itself (generator, pretty printer, readings, unwrapping) is loaded
     * and linked before the real one.
     */
    public static void prepare(Class<?> type) {
        // every record reachable from type, not only type: Jackson finds the serializers of list elements, optional
        // and reading values when it first meets them, which was 45 ms of an inventory's JSON write
        Set<Class<?>> seen = new HashSet<>();
        reachableRecords(type, seen);
        for (Class<?> c : seen) MAPPER.writerFor(c);
        write(new WarmUp(Reading.of("x"), Reading.absent("x"), Optional.of(1L), Instant.EPOCH, List.of(1.5), Map.of("k", 1)));
    }

    /** {@code type} and the records its record components hold, through lists, maps, optionals and readings. */
    private static void reachableRecords(java.lang.reflect.Type type, Set<Class<?>> seen) {
        switch (type) {
            case Class<?> c when c.isRecord() -> {
                if (!seen.add(c)) return;
                for (RecordComponent rc : c.getRecordComponents()) reachableRecords(rc.getGenericType(), seen);
            }
            case Class<?> c when c.isSealed() -> {
                for (Class<?> sub : c.getPermittedSubclasses()) reachableRecords(sub, seen);
            }
            case ParameterizedType p -> {
                for (java.lang.reflect.Type arg : p.getActualTypeArguments()) reachableRecords(arg, seen);
            }
            default -> { }
        }
    }

    /** A document with one of each kind of field the real ones hold. */
    private record WarmUp(Reading<String> present, Reading<String> absent, Optional<Long> optional, Instant time,
                          List<Double> list, Map<String, Integer> map) {}

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
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    }

    /** Jackson escapes control characters itself; a garbage value of a megabyte is cut with a marker. */
    private static final class CutStringSerializer extends JsonSerializer<String> {
        @Override
        public void serialize(String value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(ValueText.cut(value, ValueText.JSON_MAX));
        }
    }
}
