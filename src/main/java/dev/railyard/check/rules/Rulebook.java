package dev.railyard.check.rules;

import dev.railyard.model.CheckId;

import java.util.Arrays;
import java.util.List;

/**
 * Every check ID and its one rule: the facts it reads, its thresholds, how they map to a severity, its fix, and the
 * class that judges it for every path (check, bench, validate, the agent, diagnose). The switch is exhaustive, so an
 * ID cannot be added without its rule; docs/checks.md is written from this catalog.
 */
public final class Rulebook {

    private Rulebook() {
    }

    public static List<Rule> all() {
        return Arrays.stream(CheckId.values()).map(Rulebook::of).toList();
    }

    public static Rule of(CheckId id) {
        return switch (id) {
            case RDMA_PORT_STATE -> new RdmaPortStateRule();
            case RDMA_PORT_PHYS -> new RdmaPortPhysRule();
            case RDMA_IB_SM -> new SubnetManagerRule();
            case GPU_TEMPERATURE -> new GpuTemperatureRule();
            case BENCH_RDMA_BW -> new RdmaBandwidthRule();
            case GPU_ECC_UNCORRECTED -> new GpuEccRule();
            case RDMA_COUNTERS_SATURATED -> new CounterSaturationRule();
            case RDMA_COUNTERS -> new RdmaCountersRule();
            case NET_CARRIER -> new NetCarrierRule();
            case RDMA_PORT_RATE -> new RdmaPortRateRule();
            case RDMA_NETDEV_MTU -> new RdmaNetdevMtuRule();
            case RDMA_NETDEV_ADDRESS -> new RdmaNetdevAddressRule();
            case CLUSTER_MTU -> new ClusterMtuRule();
            case GPU_XID -> new GpuXidRule();
            case GPU_COUNT -> new GpuCountRule();
            case GPU_DRIVER -> new GpuDriverRule();
            case GPU_THROTTLE -> new GpuThrottleRule();
            case GPU_PCIE_LINK -> new GpuPcieLinkRule();
            case BURN_SPEED -> new BurnSpeedRule();
            case BURN_THROTTLE -> new BurnThrottleRule();
            case BURN_ERRORS -> new BurnErrorsRule();
            case BURN_CHECKSUM -> new BurnChecksumRule();
            case BURN_POWER -> new BurnPowerRule();
            case RDMA_ROCE_GID -> new RoceGidRule();
            case HOST_MODULE_RDMA -> new HostModuleRdmaRule();
            case HOST_MODULE_PEERMEM -> new HostModulePeermemRule();
            case HOST_MEMLOCK -> new RuleText(id, "RLIMIT_MEMLOCK of the node (/proc/self/limits), whether it has RDMA",
                    "unlimited", "finite on a node with RDMA: FAIL", "limits.d and systemd's DefaultLimitMEMLOCK "
                    + "set to unlimited", "HostMemlockCheck");
            case HOST_NET_BUFFERS -> new RuleText(id, "net.core.rmem_max and wmem_max",
                    "expect.net_buffer_bytes (default 268435456)", "below: WARN (advice)",
                    "sysctl now and a sysctl.d file", "HostNetBuffersCheck");
            case HOST_CPU_GOVERNOR -> new RuleText(id, "every CPU's cpufreq scaling_governor", "performance",
                    "another governor: WARN (advice)", "set performance now and at boot", "CpuGovernorCheck");
            case GPU_NVLINK -> new RuleText(id, "active NVLinks per GPU", "as many as the best-connected GPU",
                    "fewer: FAIL; unreadable: UNKNOWN", "reset the GPU, then check the NVLink bridge or baseboard",
                    "GpuNvlinkCheck, DcgmiDiagRecogniser, DeviceFaultVerdicts");
            case RDMA_LAG -> new RuleText(id, "bond membership of RDMA netdevs", "none",
                    "an RDMA netdev in a bond: WARN", "separate rails instead of a bond", "RdmaLagCheck");
            case TOPO_GPU_NIC_AFFINITY -> new RuleText(id, "PCIe topology of GPUs and fabric NICs",
                    "PIX, PXB or PHB", "NODE or SYS: WARN; no fabric NIC: UNKNOWN with a spec, else INFO "
                    + "(not applicable)", "pair each GPU with the NIC under its switch (NCCL_IB_HCA)",
                    "GpuNicAffinityCheck, NvidiaSmiTopoRecogniser");
            case TOPO_RAIL -> new RuleText(id, "RDMA ports on compute networks, GPUs", "one rail per GPU",
                    "fewer rails than GPUs: WARN", "add NICs or accept the shared bandwidth", "RailCountCheck");
            case CLUSTER_VERSIONS -> new RuleText(id, "driver, CUDA, NCCL and HCA firmware of every node", "the "
                    + "version most nodes run", "driver, CUDA or NCCL differs: FAIL; firmware differs: WARN; unread nodes: UNKNOWN; none read: INFO",
                    "install the common version on the odd nodes", "ClusterVersionsCheck");
            case CLUSTER_PKEY -> new RuleText(id, "the P_Key table of every InfiniBand port a network binds",
                    "the P_Keys most ports hold; a full member (0x8000) of the partition",
                    "no P_Key, another partition, or only limited members: FAIL; the same partitions with another "
                    + "membership: WARN; a node not read: UNKNOWN", "give the port's GUID the partition in the subnet "
                    + "manager's partition file", "ClusterPkeyCheck");
            case CLUSTER_NETWORK_SEPARATION -> new RuleText(id, "spec networks, netdevs and addresses",
                    "compute apart from management", "shared subnet, netdev or address: FAIL",
                    "give compute its own subnet and netdev", "NetworkSeparationCheck");
            case BENCH_RDMA_LAT -> new RdmaLatencyRule();
            case BENCH_NCCL_BUSBW -> new NcclBusbwRule();
            case BENCH_STORAGE_SEQ -> new StorageSeqRule();
            case BENCH_GPU_PCIE -> new RuleText(id, "host-device copy bandwidth and the slot's maximum",
                    "half of what the slot's generation and width allow", "below: FAIL",
                    "reseat the GPU or its riser", "GpuCopyVerdict");
            case BENCH_TCP_BW -> new TcpBandwidthRule();
            case BENCH_TCP_LAT -> new TcpLatencyRule();
            case BENCH_IPERF3 -> new RuleText(id, "iperf3 output: errors, retransmits, bandwidth", "none",
                    "an error: FAIL; retransmits: WARN; else INFO", "per the error iperf3 printed",
                    "Iperf3Recogniser");
            case BENCH_SOCKPERF -> new RuleText(id, "sockperf output", "none", "an error: FAIL; else INFO",
                    "per the error sockperf printed", "SockperfRecogniser");
            case RDMA_NO_DEVICES -> new RuleText(id, "a tool's \"No RDMA devices found\"", "none", "FAIL",
                    "load the RDMA driver", "DiagnosisCatalog");
            case RDMA_RETRY_EXCEEDED -> new RuleText(id, "work completions with retry exceeded; a pasted rdma "
                    + "statistic or hw_counters: the error counters (ACK timeouts, sequence errors, RNR, CQE errors)",
                    "none; counters: 0", "a work completion with retry exceeded: FAIL; an error counter above 0 in "
                    + "one paste: WARN (no rate in one snapshot); ECN/CNP counters: INFO",
                    "the GID index, the MTU of both ends, the switch's RoCE settings (PFC, ECN)",
                    "DiagnosisCatalog, RdmaStatisticRecogniser");
            case VALIDATE_BURN -> new RuleText(id, "the exit status and JSON findings of railyard burn on each node "
                    + "validate --burn reached", "a verdict for every GPU", "exit 2 (no burn command), 3, or no "
                    + "findings: UNKNOWN; killed, timed out or crashed: FAIL; no GPU: INFO",
                    "run railyard burn on the node by hand, with the same railyard version", "BurnStage");
            case SOAK_COUNTERS -> new RuleText(id, "every RDMA port's PMA error counters from the node stage's "
                    + "inventory and again after the soak window", "no growth",
                    "a counter that grew: FAIL with the port and the delta; one that went down (cleared) or stuck at "
                    + "its width's maximum, or unread: UNKNOWN", "reseat or replace the cable or transceiver; mlxlink's "
                    + "error history", "SoakCounterGrowth");
            case SOAK_BUSBW -> new RuleText(id, "NCCL all_reduce busbw and each pair's bandwidth over the soak's "
                    + "repetitions", "expect.nccl_busbw_gbps for NCCL; a spread (max - min) / median of 10 percent",
                    "median or minimum below expect, or a repetition without a result: FAIL; spread above 10 "
                    + "percent: WARN", "the pair and NCCL findings of the same run name the culprit", "SoakSpread");
            case HOST_PCIE_LINK -> new HostPcieLinkRule();
            case HOST_PCIE_AER -> new HostPcieAerRule();
            case HOST_MEMORY_ECC -> new HostMemoryEccRule();
        };
    }
}
