package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.Reading;
import dev.railyard.report.InventoryTextTrees;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** NodeFacts from the JSON that `inventory --format json` prints for real captured trees, against the inventory itself. */
class NodeFactsReaderTest {

    private static JsonNode json(NodeInventory inv) throws Exception {
        return new ObjectMapper().readTree(Json.write(inv));
    }

    @Test
    void firmwareAndNetdevsOfTheGpudH100TreeMatchTheInventory(@TempDir Path dir) throws Exception {
        NodeInventory inv = InventoryTextTrees.collect(InventoryTextTrees.gpudH100(dir));
        NodeFacts f = NodeFactsReader.read("h100-a", json(inv));
        assertThat(f.node()).isEqualTo("h100-a");
        assertThat(f.rdmaFirmware()).hasSize(inv.rdmaDevices().size()).isNotEmpty();
        for (RdmaDevice d : inv.rdmaDevices()) {
            assertThat(f.rdmaFirmware().get(d.name())).as(d.name()).isEqualTo(d.firmwareVersion());
        }
        assertThat(f.netdevs()).hasSize(inv.interfaces().size());
        for (int i = 0; i < inv.interfaces().size(); i++) {
            NetInterface n = inv.interfaces().get(i);
            NodeFacts.Netdev d = f.netdevs().get(i);
            assertThat(d.name()).isEqualTo(n.name());
            assertThat(d.mtu()).isEqualTo(n.mtu());
            assertThat(d.operState()).isEqualTo(n.operState());
            assertThat(d.addresses()).isEqualTo(n.addresses());
        }
    }

    @Test
    void noDriverIsAbsentWithNvmlsReasonAndNoNcclLibraryIsAbsentWithWhereItWasLookedFor(@TempDir Path dir) throws Exception {
        NodeInventory inv = InventoryTextTrees.collect(InventoryTextTrees.nodeExporter(dir));
        NodeFacts f = NodeFactsReader.read("n", json(inv));
        assertThat(inv.gpu().nvml().isPresent()).isFalse();
        assertThat(f.driverVersion()).isInstanceOf(Reading.Absent.class);
        assertThat(f.driverVersion().describe()).contains(inv.gpu().nvml().describe().replace("absent (", "").replace(")", ""));
        assertThat(f.ncclVersion().describe()).contains("no libnccl.so.2 in /usr/lib/x86_64-linux-gnu");
        assertThat(f.rdmaFirmware().get("mlx4_0")).isEqualTo(Reading.of("2.31.5050"));
    }

    @Test
    void presentNvmlGivesDriverAndCuda() throws Exception {
        JsonNode inv = new ObjectMapper().readTree("""
                {"hostname": "g1", "gpu": {"nvml": {"driverVersion": "580.95.05", "cudaVersion": "13.0", "nvmlVersion": "13.580"},
                 "gpus": []}, "rdmaDevices": [{"name": "mlx5_0", "firmwareVersion": {"failed": "sys/class/infiniband/mlx5_0/fw_ver", "cause": "EIO"}}],
                 "interfaces": [{"name": "ib0", "mtu": 65520, "operState": "up", "addresses": ["10.0.0.1/24"]}]}
                """);
        NodeFacts f = NodeFactsReader.read("g1", inv);
        assertThat(f.driverVersion()).isEqualTo(Reading.of("580.95.05"));
        assertThat(f.cudaVersion()).isEqualTo(Reading.of("13.0"));
        assertThat(f.rdmaFirmware().get("mlx5_0")).isEqualTo(Reading.failed("sys/class/infiniband/mlx5_0/fw_ver", "EIO"));
        assertThat(f.netdevs().getFirst().mtu()).isEqualTo(Reading.of(65520));
    }
}
