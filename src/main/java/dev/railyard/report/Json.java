package dev.railyard.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.railyard.model.Reading;
import dev.railyard.model.ValueText;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * JSON for scripts. A present reading is written as its value; an absent one as {"absent": "why"}; a failed one
 * as {"failed": "path", "cause": "..."} — so a script can test for a plain value or for one of the two keys.
 */
public final class Json {

    private static final ObjectMapper MAPPER = create();

    private Json() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** Builds (and caches) the serializers for {@code type} ahead of the first write. */
    public static void prepare(Class<?> type) {
        MAPPER.writerFor(type);
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectMapper create() {
        SimpleModule readings = new SimpleModule("railyard-readings");
        readings.addSerializer(Reading.class, new ReadingSerializer());
        readings.addSerializer(String.class, new CutStringSerializer());
        return new ObjectMapper()
                .registerModule(new Jdk8Module())
                .registerModule(new JavaTimeModule())
                .registerModule(readings)
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

    @SuppressWarnings("rawtypes")
    private static final class ReadingSerializer extends JsonSerializer<Reading> {
        @Override
        public void serialize(Reading reading, JsonGenerator gen, SerializerProvider provider) throws IOException {
            switch (reading) {
                case Reading.Present<?>(Object v) -> provider.defaultSerializeValue(v, gen);
                case Reading.Absent<?>(String reason) -> {
                    gen.writeStartObject();
                    gen.writeStringField("absent", reason);
                    gen.writeEndObject();
                }
                case Reading.Failed<?>(String path, String cause) -> {
                    gen.writeStartObject();
                    gen.writeStringField("failed", path);
                    gen.writeStringField("cause", cause);
                    gen.writeEndObject();
                }
            }
        }
    }
}
