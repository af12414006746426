package dev.railyard.platform;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.railyard.model.ReadingJson;
import dev.railyard.model.ValueText;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The one configured Jackson mapper: every JSON Railyard writes or reads goes through it, so a reading, an Optional,
 * an Instant or a record is written one way everywhere. Code that needs a variant (tolerant of unknown fields,
 * strict about trailing text, compact) takes an {@code ObjectReader}/{@code ObjectWriter} from it, never a mapper of
 * its own.
 */
public final class JsonMapperFactory {

    private JsonMapperFactory() {
    }

    /** Built on first use: Jackson takes ~150 ms to start cold, and the live inventory path never needs it. */
    private static final class Shared {
        static final ObjectMapper MAPPER = create();
    }

    /** The shared mapper. Do not reconfigure it: take a reader or writer with the features you
     * need, or {@code copy()} it to add mix-ins. */
    public static ObjectMapper shared() {
        return Shared.MAPPER;
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
