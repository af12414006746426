package dev.railyard.model;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalog in model is PRODUCT.md's check catalog: every ID of its table, with its "fires when" text, and only
 * the IDs added since besides (listed here, so a new one is added on purpose).
 */
class CheckIdTest {

    /** IDs the code emits that PRODUCT.md's initial table does not list. */
    private static final Set<String> ADDED_SINCE = Set.of("bench.gpu.pcie", "bench.tcp.bw", "bench.tcp.lat",
            "bench.iperf3", "bench.sockperf", "rdma.no-devices", "rdma.retry-exceeded", "host.pcie.link", "host.pcie.aer",
            "host.memory.ecc", "rdma.counters.saturated", "burn.speed", "burn.throttle", "burn.errors", "burn.checksum",
            "burn.power", "cluster.pkey", "validate.burn", "soak.counters", "soak.busbw");

    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9.-]+)` \\| (.*?) \\| [0-9, ]+ \\|$");

    /** PRODUCT.md sits in the shared docs beside the checkouts: /work/shared/docs from /work/main or a worktree. */
    private static Optional<Path> productMd() {
        String named = System.getenv("RAILYARD_PRODUCT_MD");
        if (named != null) return Optional.of(Path.of(named)).filter(Files::isRegularFile);
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path candidate = d.resolve("shared/docs/PRODUCT.md");
            if (Files.isRegularFile(candidate)) return Optional.of(candidate);
        }
        return Optional.empty();
    }

    private static Map<String, String> productCatalog() throws IOException {
        Optional<Path> file = productMd();
        Assumptions.assumeTrue(file.isPresent(), "PRODUCT.md not found (looked for shared/docs/PRODUCT.md above "
                + Path.of("").toAbsolutePath() + "; set RAILYARD_PRODUCT_MD to name it): catalog not compared");
        Map<String, String> ids = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file.get())) {
            Matcher m = ROW.matcher(line.strip());
            if (m.matches()) ids.put(m.group(1), m.group(2).replace("`", ""));
        }
        assertThat(ids).as("check catalog rows in " + file.get()).hasSizeGreaterThan(20);
        return ids;
    }

    @Test
    void everyIdOfProductMdIsInTheCatalogWithItsText() throws IOException {
        Map<String, String> product = productCatalog();
        for (Map.Entry<String, String> e : product.entrySet()) {
            Optional<CheckId> id = CheckId.of(e.getKey());
            assertThat(id).as(e.getKey() + " from PRODUCT.md").isPresent();
            assertThat(id.get().firesWhen()).as(e.getKey()).isEqualTo(e.getValue());
        }
    }

    @Test
    void theCatalogHasNothingElseButTheIdsAddedSince() throws IOException {
        Set<String> product = productCatalog().keySet();
        Set<String> extra = Arrays.stream(CheckId.values()).map(CheckId::id).filter(i -> !product.contains(i))
                .collect(Collectors.toSet());
        assertThat(extra).isEqualTo(ADDED_SINCE);
    }

    @Test
    void idsAreUniqueAndDotted() {
        assertThat(Arrays.stream(CheckId.values()).map(CheckId::id).distinct()).hasSize(CheckId.values().length);
        for (CheckId c : CheckId.values()) {
            assertThat(c.id()).matches("[a-z0-9-]+(\\.[a-z0-9-]+)+");
            assertThat(c.firesWhen()).isNotBlank();
            assertThat(c.toString()).isEqualTo(c.id());
        }
    }
}
