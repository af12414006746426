package dev.railyard.report;

import dev.railyard.model.NodeInventory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole inventory text of real captured trees against golden files in src/test/resources/golden/. The goldens
 * are the spec: after a deliberate change, regenerate with -Dgolden.update=true and read the diff before committing.
 */
class InventoryTextGoldenTest {

    private static final Path GOLDEN_DIR = Path.of("src/test/resources/golden");

    @TempDir
    Path dir;

    /** The temp root differs per run; it is the only varying text (header and the NVML reason name it). */
    private static String render(Path root) {
        NodeInventory inv = InventoryTextTrees.collect(root);
        // As wide as it needs: the temp root's length would otherwise move the wrap points between runs.
        return InventoryText.render(inv, new TextStyle(10_000, false)).replace(root.toString(), "<root>");
    }

    @Test
    void atOneHundredColumnsLinesWrapAndNoWordIsLost() throws IOException {
        NodeInventory inv = InventoryTextTrees.collect(InventoryTextTrees.gpudH100(dir));
        String wide = InventoryText.render(inv, new TextStyle(10_000, false));
        String narrow = InventoryText.render(inv, TextStyle.PLAIN);
        assertThat(wide.lines()).anyMatch(l -> l.length() > 100);
        for (String line : narrow.lines().toList()) {
            boolean oneWord = !line.trim().contains(" ");
            if (!oneWord) assertThat(line.length()).as(line).isLessThanOrEqualTo(100);
        }
        assertThat(narrow.split("\\s+")).as("the same words, none cut").containsExactlyInAnyOrder(wide.split("\\s+"));
    }

    private static void assertGolden(String name, String actual) throws IOException {
        Path file = GOLDEN_DIR.resolve(name);
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN_DIR);
            Files.writeString(file, actual, StandardCharsets.UTF_8);
        }
        assertThat(file).as("golden %s (regenerate with -Dgolden.update=true)", file).exists();
        assertThat(actual).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    }

    @Test
    void nodeExporterFixtureTree() throws IOException {
        assertGolden("inventory-node_exporter.txt", render(InventoryTextTrees.nodeExporter(dir)));
    }

    @Test
    void procfsFixtureTree() throws IOException {
        assertGolden("inventory-procfs.txt", render(InventoryTextTrees.procfs(dir)));
    }

    @Test
    void gpudH100Tree() throws IOException {
        assertGolden("inventory-gpud-h100.txt", render(InventoryTextTrees.gpudH100(dir)));
    }

    @Test
    void roceGidTablesOfNccl1573() throws IOException {
        assertGolden("inventory-nccl1573-roce.txt", render(InventoryTextTrees.nccl1573Roce(dir)));
    }

    @Test
    void emptyNode() throws IOException {
        assertGolden("inventory-empty.txt", render(dir));
    }
}
