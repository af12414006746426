package dev.railyard.render;

import dev.railyard.model.ClusterSpec;

import java.util.List;

/**
 * etc/prometheus/railyard.yml: a complete Prometheus configuration that scrapes every node's agent, each target
 * labelled with its node and cluster (so one Prometheus and Grafana see every node's GPUs and ports).
 */
public final class PrometheusRenderer implements Renderer {

    static final String PATH = "etc/prometheus/railyard.yml";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        StringBuilder s = new StringBuilder(in.clusterHeader("#"));
        s.append("""
                # Use it as prometheus.yml on the monitoring host, or copy the scrape job into the one there.
                # No dcgm-exporter (:9400) or node_exporter (:9100) jobs: the agent replaces both for what the
                # dashboards read. Its /metrics carries DCGM's names for the GPU (DCGM_FI_DEV_GPU_TEMP, _POWER_USAGE,
                # _SM_CLOCK, _CLOCK_THROTTLE_REASONS, _XID_ERRORS, _ECC_*, _*_REMAPPED_ROWS, _NVLINK_*_ERROR_COUNT_TOTAL,
                # _PCIE_LINK_GEN/_WIDTH, _FB_USED/_FREE) and node_exporter's for the fabric (node_infiniband_*,
                # node_network_up, _carrier, _carrier_changes, _mtu_bytes). Where those exporters run anyway (CPU,
                # memory and disk come from node_exporter only), add a job for each beside this one.
                global:
                  scrape_interval: 15s
                  evaluation_interval: 15s
                scrape_configs:
                  - job_name: railyard
                    # Agents sample every second; 5 s keeps a fault visible within one Grafana refresh.
                    scrape_interval: 5s
                    static_configs:
                """);
        for (ClusterSpec.Node n : in.spec().nodes()) {
            s.append("      - targets: ['").append(n.address()).append(':').append(in.agentPort()).append("']\n");
            s.append("        labels:\n");
            s.append("          node: '").append(n.name()).append("'\n");
            s.append("          cluster: '").append(in.spec().cluster()).append("'\n");
        }
        return List.of(RenderedFile.of(PATH, s.toString()));
    }
}
