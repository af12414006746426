package dev.railyard.model;

import java.util.Optional;
import java.util.function.Function;

/**
 * One value read from the OS or a library: present, absent (with why), or failed (with the path and cause).
 * Never null and never silently missing, so reports can say exactly why a field is empty.
 */
public sealed interface Reading<T> permits Reading.Present, Reading.Absent, Reading.Failed {

    record Present<T>(T value) implements Reading<T> {
        public Present {
            if (value == null) throw new IllegalArgumentException("a present reading needs a value");
        }
    }

    /** Normal on machines without the subsystem: no GPU, no RDMA, a counter the driver does not expose. */
    record Absent<T>(String reason) implements Reading<T> {}

    /** The source exists but could not be read or parsed. */
    record Failed<T>(String path, String cause) implements Reading<T> {}

    static <T> Reading<T> of(T value) {
        return new Present<>(value);
    }

    static <T> Reading<T> absent(String reason) {
        return new Absent<>(reason);
    }

    static <T> Reading<T> failed(String path, String cause) {
        return new Failed<>(path, cause);
    }

    default boolean isPresent() {
        return this instanceof Present<T>;
    }

    default Optional<T> optional() {
        return this instanceof Present<T>(T v) ? Optional.of(v) : Optional.empty();
    }

    default T orElse(T fallback) {
        return optional().orElse(fallback);
    }

    @SuppressWarnings("unchecked")
    default <R> Reading<R> map(Function<? super T, ? extends R> f) {
        return switch (this) {
            case Present<T>(T v) -> new Present<>(f.apply(v));
            case Absent<T> a -> (Reading<R>) a;
            case Failed<T> fl -> (Reading<R>) fl;
        };
    }

    /** Human text: the value, or why there is none. */
    default String describe() {
        return switch (this) {
            case Present<T>(T v) -> String.valueOf(v);
            case Absent<T>(String reason) -> "absent (" + reason + ")";
            case Failed<T>(String path, String cause) -> "failed (" + path + ": " + cause + ")";
        };
    }
}
