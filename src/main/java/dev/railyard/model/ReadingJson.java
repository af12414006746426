package dev.railyard.model;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;

import java.io.IOException;

/**
 * The one JSON form of a {@link Reading}, written by every JSON output and read back from a capture's NVML file:
 * {"state": "present", "value": ...}, {"state": "absent", "reason": ...} or {"state": "failed", "path": ..., "cause": ...}.
 */
public final class ReadingJson {

    private ReadingJson() {
    }

    /** Registers both directions on a mapper. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static SimpleModule module() {
        SimpleModule m = new SimpleModule("railyard-readings");
        m.addSerializer(Reading.class, new Writer());
        m.addDeserializer(Reading.class, (JsonDeserializer) new Reader(null));
        return m;
    }

    @SuppressWarnings("rawtypes")
    private static final class Writer extends JsonSerializer<Reading> {
        @Override
        public void serialize(Reading reading, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeStartObject();
            switch (reading) {
                case Reading.Present<?>(Object v) -> {
                    gen.writeStringField("state", "present");
                    gen.writeFieldName("value");
                    provider.defaultSerializeValue(v, gen);
                }
                case Reading.Absent<?>(String reason) -> {
                    gen.writeStringField("state", "absent");
                    gen.writeStringField("reason", reason);
                }
                case Reading.Failed<?>(String path, String cause) -> {
                    gen.writeStringField("state", "failed");
                    gen.writeStringField("path", path);
                    gen.writeStringField("cause", cause);
                }
            }
            gen.writeEndObject();
        }
    }

    /** Knows the reading's value type from the field it fills (Reading<Integer>, Reading<List<NvLink>>). */
    private static final class Reader extends JsonDeserializer<Reading<?>> implements ContextualDeserializer {
        private final JavaType valueType;

        Reader(JavaType valueType) {
            this.valueType = valueType;
        }

        @Override
        public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
            JavaType type = property != null ? property.getType() : ctxt.getContextualType();
            return new Reader(type == null ? ctxt.constructType(Object.class) : type.containedTypeOrUnknown(0));
        }

        @Override
        public Reading<?> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode n = p.readValueAsTree();
            String state = n.path("state").asText("");
            return switch (state) {
                case "present" -> Reading.of(ctxt.readTreeAsValue(n.get("value"), valueType));
                case "absent" -> Reading.absent(n.path("reason").asText());
                case "failed" -> Reading.failed(n.path("path").asText(), n.path("cause").asText());
                default -> throw ctxt.weirdStringException(state, Reading.class, "a reading's state is present, absent or failed");
            };
        }
    }
}
