package dev.railyard.cli;

import dev.railyard.platform.Timings;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The inventory main starts before picocli: only for an inventory of this machine, and the command uses it. */
class InventoryPrefetchTest {

    private static Optional<InventoryPrefetch> start(String... args) {
        return InventoryPrefetch.startIfLiveInventory(args, Timings.off());
    }

    @Test
    void startsOnlyWhenTheArgumentsCanMeanNothingButThisMachinesInventory() {
        assertThat(start("check")).isEmpty();
        assertThat(start("init", "inventory")).isEmpty();
        assertThat(start("inventory", "--root", "tree")).isEmpty();
        assertThat(start("inventory", "--root=tree")).isEmpty();
        assertThat(start("inventory", "--help")).isEmpty();
        assertThat(start("-V")).isEmpty();
        Optional<InventoryPrefetch> text = start("inventory");
        assertThat(text).hasValueSatisfying(p -> assertThat(p.json()).isEmpty());
        Optional<InventoryPrefetch> json = start("--debug", "inventory", "--format", "json");
        assertThat(json).hasValueSatisfying(p -> assertThat(p.json()).isPresent());
        assertThat(text.get().inventory().root()).isEqualTo("/");
    }

    @Test
    void theCommandPrintsThePrefetchedInventory() {
        String[] args = {"inventory", "--format", "json"};
        Timings t = Main.timingsFor(java.util.Map.of("RAILYARD_TIMINGS", "1"), args);
        var cl = Main.commandLineFor(new Main.Startup(t, InventoryPrefetch.startIfLiveInventory(args, t)), args);
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertThat(cl.execute(args)).isZero();
        assertThat(out.toString()).startsWith("{\n  \"schemaVersion\" : 1,").contains("\"root\" : \"/\"");
        assertThat(t.phases()).extracting(Timings.Phase::name).contains("waiting for the JSON written beside picocli",
                "collect (all readers)").doesNotContain("text render", "waiting for the inventory started in main");
        assertThat(t.phases()).filteredOn(p -> p.name().equals("collect (all readers)")).singleElement()
                .satisfies(p -> assertThat(p.thread()).isEqualTo("railyard-collect"));
        assertThat(t.phases()).filteredOn(p -> p.name().equals("JSON write")).singleElement()
                .satisfies(p -> assertThat(p.thread()).isEqualTo("railyard-json"));
    }

    /** The document written beside picocli is the one the command writes itself from the same inventory. */
    @Test
    void theJsonWrittenBesidePicocliIsTheCommandsOwn() {
        InventoryPrefetch p = start("inventory", "--format=json").orElseThrow();
        String written = p.json().orElseThrow();
        assertThat(written).isEqualTo(dev.railyard.report.InventoryJson.write(p.inventory()) + "\n");
        dev.railyard.report.JsonParity.assertSameDocument(written.strip(), dev.railyard.report.Json.write(p.inventory()),
                "the prefetched inventory");
    }

    /** Text output: the command renders the prefetched inventory itself. */
    @Test
    void theTextCommandRendersThePrefetchedInventory() {
        String[] args = {"inventory"};
        Timings t = Main.timingsFor(java.util.Map.of("RAILYARD_TIMINGS", "1"), args);
        var cl = Main.commandLineFor(new Main.Startup(t, InventoryPrefetch.startIfLiveInventory(args, t)), args);
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertThat(cl.execute(args)).isZero();
        assertThat(out.toString()).isNotBlank();
        assertThat(t.phases()).extracting(Timings.Phase::name).contains("waiting for the inventory started in main",
                "text render").doesNotContain("JSON write");
    }
}
