package dev.railyard.report;

import dev.railyard.model.NodeInventory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inventory of real trees at 80 and 100 columns: no line is wider than the terminal, so none is folded onto a
 * continuation line by the terminal itself; a cell wraps inside its own column, at spaces where it can and inside a
 * long word (an IPv6 address, a MAC) where it must.
 */
class TablesFitTheWidthTest {

    @TempDir
    Path dir;

    private List<NodeInventory> inventories() throws IOException {
        return List.of(
                InventoryTextTrees.collect(Path.of("src/test/resources/trees/h200x4-capture")),
                InventoryTextTrees.collect(InventoryTextTrees.nodeExporter(dir.resolve("ne"))),
                InventoryTextTrees.collect(InventoryTextTrees.gpudH100(dir.resolve("h100"))));
    }

    @ParameterizedTest
    @ValueSource(ints = {80, 100})
    void noInventoryLineIsWiderThanTheTerminal(int width) throws IOException {
        for (NodeInventory inv : inventories()) {
            String text = InventoryText.render(inv, new TextStyle(width, false));
            assertThat(text.lines().filter(l -> l.length() > width).toList()).as(inv.root()).isEmpty();
        }
    }

    @Test
    void aWordLongerThanItsColumnBreaksInsideTheCell() {
        TextTable t = new TextTable("NAME", "MAC", "ADDRESSES");
        t.row("eth0", "02:42:ac:11:00:02", "fe80:0000:0000:0000:00fc:00ff:fe00:0001/64");
        List<List<String>> rows = t.lines("", 40);
        List<String> row = rows.get(1);
        assertThat(row).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(40));
        assertThat(String.join("", row.stream().map(l -> l.substring(Math.min(l.length(), rows.get(0).getFirst()
                .indexOf("ADDRESSES")))).toList())).isEqualTo("fe80:0000:0000:0000:00fc:00ff:fe00:0001/64");
    }
}
