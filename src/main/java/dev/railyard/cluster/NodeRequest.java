package dev.railyard.cluster;

import dev.railyard.model.NetInterface.RdmaPortRef;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One step that validate asks a node's railyard to run. {@link NodeArgv} writes each as the argv the node's CLI takes
 * and reads it back; nothing else in the cluster package spells a node's command line.
 */
sealed interface NodeRequest {

    /** {@code railyard inventory --format json}. */
    record Inventory() implements NodeRequest {}

    /** {@code railyard check} as the spec's node {@code node}, with the spec handed over inline when there is one. */
    record Check(String node, Optional<String> specBase64) implements NodeRequest {}

    /** A TCP benchmark server; {@code once} ends it after one client. */
    record TcpServer(String bind, int port, boolean once) implements NodeRequest {}

    /**
     * A TCP benchmark client against {@code server}: bandwidth (with {@code streams} when given) or latency, for
     * {@code duration}; it waits up to {@code connectTimeout} for the server to listen. Durations keep the units
     * they are sent in (milliseconds, whole seconds), so what a node is told is what this record holds.
     */
    record TcpClient(String server, int port, Duration connectTimeout, Optional<String> bind, TcpMode mode,
                     Duration duration, OptionalInt streams) implements NodeRequest {
        public TcpClient {
            connectTimeout = Duration.ofSeconds(connectTimeout.toSeconds());
            duration = Duration.ofMillis(duration.toMillis());
        }
    }

    enum TcpMode { BANDWIDTH, LATENCY }

    /** The perftest server side of an RDMA pair. */
    record RdmaServer(RdmaOptions options) implements NodeRequest {}

    /** The perftest client side of an RDMA pair, connecting to {@code server}. */
    record RdmaClient(String server, RdmaOptions options) implements NodeRequest {}

    /**
     * What both sides of an RDMA pair are given: the perftest test, the step's limit in seconds, the run's length in
     * seconds (bandwidth only), and the netdev and device port the spec binds on that node.
     */
    record RdmaOptions(RdmaTest test, long timeoutSeconds, OptionalLong durationSeconds, Optional<String> netdev,
                       Optional<RdmaPortRef> port) {}

    enum RdmaTest {
        WRITE_BW("write_bw"), WRITE_LAT("write_lat");

        final String perftestName;

        RdmaTest(String perftestName) {
            this.perftestName = perftestName;
        }
    }

    /** The GPU copy benchmark, with a smaller buffer and fewer iterations when given. */
    record GpuCopy(Optional<String> size, OptionalInt iters) implements NodeRequest {}

    /** The storage benchmark, held to the spec's expect.storage_seq_mbps when it gives one. */
    record Storage(Optional<Double> expectMbps) implements NodeRequest {}

    /** NCCL all_reduce on one node's {@code gpus} GPUs, 8 bytes to {@code maxBytes}. */
    record NcclLocal(String maxBytes, int gpus) implements NodeRequest {}

    /** One rank of a multi-node NCCL all_reduce on GPU {@code device}, meeting at {@code rendezvous} (host:port). */
    record NcclRank(String maxBytes, int rank, int nranks, int device, String rendezvous) implements NodeRequest {}

    /** {@code railyard burn}: every GPU of the node at full load for {@code duration} (whole seconds). */
    record Burn(Duration duration) implements NodeRequest {
        public Burn {
            duration = Duration.ofSeconds(duration.toSeconds());
        }
    }
}
