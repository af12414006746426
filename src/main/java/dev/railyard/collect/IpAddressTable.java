package dev.railyard.collect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.model.Reading;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Interface name to its addresses ("10.0.0.1/24", "fe80::1/64"), from {@code ip -j address show}: run on a live
 * root, or read from railyard/ip-address.json in a capture (sysfs has no addresses).
 */
record IpAddressTable(Map<String, List<String>> byInterface) {

    static final String CAPTURED_FILE = "railyard/ip-address.json";
    static final List<String> ARGV = List.of("ip", "-j", "address", "show");
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    IpAddressTable {
        byInterface = Map.copyOf(byInterface);
    }

    /** The addresses of one interface; an interface that ip does not list has none. */
    Reading<List<String>> of(String name) {
        return Reading.of(byInterface.getOrDefault(name, List.of()));
    }

    static Reading<IpAddressTable> read(HostRoot root, CommandRunner runner) {
        if (!root.isLive()) {
            if (!root.exists(CAPTURED_FILE)) return Reading.absent("not captured");
            Reading<String> text = root.read(CAPTURED_FILE);
            if (!(text instanceof Reading.Present<String>(String json))) return text.map(x -> null);
            return parse(CAPTURED_FILE, json);
        }
        CommandRunner.Result r = runner.run(ARGV, TIMEOUT);
        String cmd = String.join(" ", ARGV);
        if (r.notFound()) return Reading.absent("ip not available: " + r.startError());
        if (r.timedOut()) return Reading.failed(cmd, "timed out after " + TIMEOUT.toSeconds() + " s");
        if (!r.ok()) return Reading.failed(cmd, "exit " + r.exitCode() + ": " + r.stderr().strip());
        return parse(cmd, r.stdout());
    }

    /** Parses the JSON array that {@code ip -j address show} prints. */
    static Reading<IpAddressTable> parse(String source, String json) {
        JsonNode tree;
        try {
            tree = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return Reading.failed(source, "not JSON: " + e.getOriginalMessage());
        }
        if (tree == null || !tree.isArray()) return Reading.failed(source, "expected a JSON array of interfaces");
        Map<String, List<String>> table = new LinkedHashMap<>();
        for (JsonNode link : tree) {
            String name = link.path("ifname").asText("");
            if (name.isEmpty()) continue;
            List<String> addresses = new ArrayList<>();
            for (JsonNode a : link.path("addr_info")) {
                String local = a.path("local").asText("");
                if (local.isEmpty()) continue;
                addresses.add(a.has("prefixlen") ? local + "/" + a.path("prefixlen").asInt() : local);
            }
            table.merge(name, List.copyOf(addresses), (x, y) -> {
                List<String> both = new ArrayList<>(x);
                both.addAll(y);
                return List.copyOf(both);
            });
        }
        return Reading.of(new IpAddressTable(table));
    }
}
