package dev.railyard.agent;

import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The agent's /metrics: raw signals under the names dcgm-exporter and node_exporter use, so existing dashboards and
 * alerts work unchanged, and Railyard's verdicts under railyard_*. Every metric is listed in docs/metrics.md. A
 * reading that is absent or failed is left out (no sample), never exported as 0.
 */
public final class AgentMetrics {

    /** A sysfs port counter node_exporter exports: its file under counters/, its metric name (no _total), its help. */
    record NodeExporterCounter(String file, String metric, String help) {}

    /** node_exporter's names and help texts for the sysfs port counters it exports (collector/infiniband_linux.go). */
    static final List<NodeExporterCounter> NODE_EXPORTER_COUNTERS = List.of(
            new NodeExporterCounter("VL15_dropped", "node_infiniband_vl15_dropped",
                    "Number of incoming VL15 packets dropped due to resource limitations."),
            new NodeExporterCounter("excessive_buffer_overrun_errors", "node_infiniband_excessive_buffer_overrun_errors",
                    "Number of times that OverrunErrors consecutive flow control update periods occurred, each having at least one overrun error."),
            new NodeExporterCounter("link_downed", "node_infiniband_link_downed",
                    "Number of times the link failed to recover from an error state and went down"),
            new NodeExporterCounter("link_error_recovery", "node_infiniband_link_error_recovery",
                    "Number of times the link successfully recovered from an error state"),
            new NodeExporterCounter("local_link_integrity_errors", "node_infiniband_local_link_integrity_errors",
                    "Number of times that the count of local physical errors exceeded the threshold specified by LocalPhyErrors."),
            new NodeExporterCounter("multicast_rcv_packets", "node_infiniband_multicast_packets_received",
                    "Number of multicast packets received (including errors)"),
            new NodeExporterCounter("multicast_xmit_packets", "node_infiniband_multicast_packets_transmitted",
                    "Number of multicast packets transmitted (including errors)"),
            new NodeExporterCounter("port_rcv_constraint_errors", "node_infiniband_port_constraint_errors_received",
                    "Number of packets received on the switch physical port that are discarded"),
            new NodeExporterCounter("port_rcv_discards", "node_infiniband_port_discards_received",
                    "Number of inbound packets discarded by the port because the port is down or congested"),
            new NodeExporterCounter("port_rcv_errors", "node_infiniband_port_errors_received",
                    "Number of packets containing an error that were received on this port"),
            new NodeExporterCounter("port_rcv_packets", "node_infiniband_port_packets_received",
                    "Number of packets received on all VLs by this port (including errors)"),
            new NodeExporterCounter("port_rcv_remote_physical_errors", "node_infiniband_port_receive_remote_physical_errors",
                    "Number of packets marked with the EBP (End of Bad Packet) delimiter received on the port."),
            new NodeExporterCounter("port_rcv_switch_relay_errors", "node_infiniband_port_receive_switch_relay_errors",
                    "Number of packets that could not be forwarded by the switch."),
            new NodeExporterCounter("port_xmit_constraint_errors", "node_infiniband_port_constraint_errors_transmitted",
                    "Number of packets not transmitted from the switch physical port"),
            new NodeExporterCounter("port_xmit_discards", "node_infiniband_port_discards_transmitted",
                    "Number of outbound packets discarded by the port because the port is down or congested"),
            new NodeExporterCounter("port_xmit_packets", "node_infiniband_port_packets_transmitted",
                    "Number of packets transmitted on all VLs from this port (including errors)"),
            new NodeExporterCounter("port_xmit_wait", "node_infiniband_port_transmit_wait",
                    "Number of ticks during which the port had data to transmit but no data was sent during the entire tick"),
            new NodeExporterCounter("symbol_error", "node_infiniband_symbol_error",
                    "Number of minor link errors detected on one or more physical lanes."),
            new NodeExporterCounter("unicast_rcv_packets", "node_infiniband_unicast_packets_received",
                    "Number of unicast packets received (including errors)"),
            new NodeExporterCounter("unicast_xmit_packets", "node_infiniband_unicast_packets_transmitted",
                    "Number of unicast packets transmitted (including errors)"));

    private AgentMetrics() {
    }

    static MetricFamilies families(AgentState state) {
        MetricFamilies m = new MetricFamilies();
        String node = state.node();
        m.gauge("railyard_agent_up", "1 while the agent serves; see railyard_last_sample_timestamp_seconds for freshness.", 1);
        m.counter("railyard_samples", "Samplings of the node since the agent started.", state.sampleCount());
        m.gauge("railyard_node_health", "Node health: 0 healthy, 1 degraded, 2 unhealthy (worst component).",
                state.health().ordinal(), "node", node);
        for (ComponentHealth c : state.components()) {
            m.gauge("railyard_component_health", "Component health: 0 healthy, 1 degraded, 2 unhealthy.",
                    c.state().ordinal(), "node", node, "component", c.component(), "kind", c.kind().name().toLowerCase(),
                    "check", c.checkId());
        }
        SlurmStatus slurm = state.slurm();
        if (slurm.enabled()) {
            m.gauge("railyard_slurm_drained_by_railyard", "1 when the agent drained this node in Slurm and has not resumed it.",
                    slurm.lastAction().map(a -> a.equals("drained") ? 1 : 0).orElse(0), "node", node,
                    "slurm_node", slurm.slurmNode());
            m.gauge("railyard_slurm_error", "1 when the last scontrol call failed.", slurm.error().isPresent() ? 1 : 0,
                    "node", node);
        }
        state.lastActiveCheck().ifPresent(c -> activeCheck(m, c));
        state.sample().ifPresent(s -> {
            m.gauge("railyard_last_sample_timestamp_seconds", "When the node was last sampled (Unix time).",
                    s.at().toEpochMilli() / 1000.0);
            m.gauge("railyard_sample_duration_seconds", "How long the last sampling took.", s.took().toNanos() / 1e9);
            for (Severity sev : Severity.values()) {
                m.gauge("railyard_findings", "Findings of the last sample by severity.",
                        s.findings().stream().filter(f -> f.severity() == sev).count(), "node", node, "severity", sev.name());
            }
            for (Finding f : s.findings()) {
                if (f.severity() == Severity.PASS || f.severity() == Severity.INFO) continue;
                m.gauge("railyard_finding", "A finding worse than PASS/INFO in the last sample (1 per check and subject).", 1,
                        "node", node, "check", f.id(), "subject", f.subject(), "severity", f.severity().name());
            }
            DcgmMetrics.write(m, s.inventory(), node);
            ports(m, s.inventory());
            netdevs(m, s.inventory());
        });
        return m;
    }

    /** The last scheduled active check (docs/metrics.md); duration and verdict only once it ended. */
    private static void activeCheck(MetricFamilies m, ActiveCheckHistory.LastActiveCheck c) {
        m.gauge("railyard_last_active_check_start_timestamp_seconds",
                "When the last scheduled active check (validate --quick) started (Unix time).",
                c.startedAt().toEpochMilli() / 1000.0);
        m.gauge("railyard_last_active_check_complete", "1 when the last scheduled active check ended with a verdict, "
                + "0 while it runs or when it was killed.", c.finishedAt().isPresent() && c.verdict().isPresent() ? 1 : 0);
        c.finishedAt().ifPresent(end -> m.gauge("railyard_last_active_check_duration_seconds",
                "How long the last scheduled active check ran.",
                java.time.Duration.between(c.startedAt(), end).toMillis() / 1000.0));
        c.verdict().ifPresent(v -> m.gauge("railyard_last_active_check_verdict",
                "The verdict of the last scheduled active check: 1 on its severity (PASS, WARN, FAIL, ...).", 1,
                "verdict", v.name()));
    }

    private static void ports(MetricFamilies m, NodeInventory inv) {
        for (RdmaDevice d : inv.rdmaDevices()) {
            m.gauge("node_infiniband_info", "Non-numeric data from /sys/class/infiniband/<device>, value is always 1.", 1,
                    "board_id", d.boardId().orElse(""), "device", d.name(), "firmware_version", d.firmwareVersion().orElse(""),
                    "hca_type", d.hcaType().orElse(""));
            for (RdmaPort p : d.ports()) {
                String[] l = {"device", d.name(), "port", String.valueOf(p.port())};
                set(p.state(), s -> m.gauge("node_infiniband_state_id", "State of the InfiniBand port (0: no change, 1: down, 2: init, 3: armed, 4: active, 5: act defer)", s.code(), l));
                set(p.physState(), s -> m.gauge("node_infiniband_physical_state_id", "Physical state of the InfiniBand port (0: no change, 1: sleep, 2: polling, 3: disable, 4: shift, 5: link up, 6: link error recover, 7: phytest)", s.code(), l));
                set(p.rate(), r -> m.gauge("node_infiniband_rate_bytes_per_second", "Maximum signal transfer rate", r.gbps() * 1e9 / 8, l));
                set(p.rcvDataBytes(), v -> m.counter("node_infiniband_port_data_received_bytes", "Number of data octets received on all links", v, l));
                set(p.xmitDataBytes(), v -> m.counter("node_infiniband_port_data_transmitted_bytes", "Number of data octets transmitted on all links", v, l));
                for (NodeExporterCounter c : NODE_EXPORTER_COUNTERS) {
                    set(p.counter(c.file()), v -> m.counter(c.metric(), c.help(), v, l));
                }
                p.counters().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> set(e.getValue(), v ->
                        m.counter("railyard_rdma_port_events", "Every counter of ports/N/counters, raw (data counters in 4-byte words).",
                                v, "device", d.name(), "port", String.valueOf(p.port()), "name", e.getKey())));
                p.hwCounters().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> set(e.getValue(), v ->
                        m.counter("railyard_rdma_port_hw_events", "Every counter of ports/N/hw_counters (RoCE ECN/CNP, retransmits...), raw.",
                                v, "device", d.name(), "port", String.valueOf(p.port()), "name", e.getKey())));
            }
        }
    }

    private static void netdevs(MetricFamilies m, NodeInventory inv) {
        for (NetInterface n : inv.interfaces()) {
            String[] l = {"device", n.name()};
            NetInterface.InfoLabels info = n.info();
            m.gauge("node_network_info", "Non-numeric data from /sys/class/net/<iface>, value is always 1.", 1,
                    "address", n.mac().orElse(""), "adminstate", info.adminState(), "broadcast", info.broadcast(),
                    "device", n.name(), "duplex", info.duplex(), "ifalias", info.ifalias(), "operstate",
                    n.operState().orElse(""));
            // node_exporter leaves the speed out where the kernel writes -1 (bonds, virtual devices, no carrier)
            set(n.speedMbps(), v -> m.gauge("node_network_speed_bytes", "Network device property: speed_bytes",
                    v * 1000 * 1000 / 8, l));
            set(n.carrierChanges(), v -> m.counter("node_network_carrier_changes", "Network device property: carrier_changes_total", v, l));
            set(n.mtu(), v -> m.gauge("node_network_mtu_bytes", "Network device property: mtu_bytes", v, l));
            set(n.carrier(), v -> m.gauge("node_network_carrier", "Network device property: carrier", v ? 1 : 0, l));
            set(n.operState(), v -> m.gauge("node_network_up", "Value is 1 if operstate is 'up', 0 otherwise.", v.equals("up") ? 1 : 0, l));
        }
    }

    private static <T> void set(Reading<T> r, Consumer<T> use) {
        if (r instanceof Reading.Present<T>(T v)) use.accept(v);
    }
}
