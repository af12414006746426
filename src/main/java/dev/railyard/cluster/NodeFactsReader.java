package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Takes what the cluster checks compare out of a node's {@code inventory --format json}: driver, CUDA and NCCL
 * versions, HCA firmware per RDMA device, every RDMA port's link layer and P_Keys, and every netdev's MTU, state and addresses.
 */
public final class NodeFactsReader {

    private NodeFactsReader() {
    }

    public static NodeFacts read(String node, JsonNode inventory) {
        JsonNode nvml = inventory.path("gpu").path("nvml");
        Reading<JsonNode> system = StepJson.reading(nvml, n -> n, "the inventory has no gpu.nvml");
        Reading<String> driver = field(system, "driverVersion");
        Reading<String> cuda = field(system, "cudaVersion");
        // an inventory written before host.ncclVersion existed: the check says NCCL was not compared
        Reading<String> nccl = StepJson.reading(inventory.path("host").path("ncclVersion"), JsonNode::asText,
                "this node's inventory does not report NCCL's version");
        Map<String, Reading<String>> firmware = new LinkedHashMap<>();
        List<NodeFacts.Port> ports = new ArrayList<>();
        for (JsonNode dev : inventory.path("rdmaDevices")) {
            String name = dev.path("name").asText("?");
            firmware.put(name, StepJson.reading(dev.path("firmwareVersion"), JsonNode::asText,
                    "no firmware version in the inventory"));
            for (JsonNode p : dev.path("ports")) {
                ports.add(new NodeFacts.Port(name, p.path("port").asInt(),
                        StepJson.reading(p.path("linkLayer"), JsonNode::asText, "no link layer in the inventory"),
                        StepJson.reading(p.path("pkeys"), NodeFactsReader::pkeys,
                                "this node's inventory does not report P_Keys")));
            }
        }
        List<NodeFacts.Netdev> netdevs = new ArrayList<>();
        for (JsonNode i : inventory.path("interfaces")) {
            netdevs.add(new NodeFacts.Netdev(i.path("name").asText("?"),
                    StepJson.reading(i.path("mtu"), n -> n.canConvertToInt() ? n.asInt() : null, "no MTU"),
                    StepJson.reading(i.path("operState"), JsonNode::asText, "no operstate"),
                    StepJson.reading(i.path("addresses"), NodeFactsReader::strings, "no addresses")));
        }
        return new NodeFacts(node, inventory.path("hostname").asText(node), driver, cuda, nccl, firmware, netdevs, ports);
    }

    private static Reading<String> field(Reading<JsonNode> system, String name) {
        return switch (system) {
            case Reading.Present<JsonNode>(JsonNode n) -> StepJson.reading(n.path(name), JsonNode::asText, "NVML gave no " + name);
            case Reading.Absent<JsonNode>(String why) -> Reading.absent(why);
            case Reading.Failed<JsonNode>(String path, String cause) -> Reading.failed(path, cause);
        };
    }

    /** P_Keys as the inventory writes them: numbers (0xffff is 65535). */
    private static List<Integer> pkeys(JsonNode array) {
        if (!array.isArray()) throw new IllegalArgumentException("not a list");
        List<Integer> out = new ArrayList<>();
        for (JsonNode k : array) {
            if (!k.canConvertToInt() || k.asInt() < 0 || k.asInt() > 0xffff) {
                throw new IllegalArgumentException("not a P_Key: " + k);
            }
            out.add(k.asInt());
        }
        return out;
    }

    private static List<String> strings(JsonNode array) {
        if (!array.isArray()) throw new IllegalArgumentException("not a list");
        List<String> out = new ArrayList<>();
        array.forEach(a -> out.add(a.asText()));
        return out;
    }
}
