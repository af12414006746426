package dev.railyard.bench.nccl;

import dev.railyard.model.RailyardException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One process per rank: rank 0 listens on the rendezvous address, hands every other rank the NCCL unique id, and
 * afterwards combines per-size timings (average) and #wrong (sum) so all ranks agree and rank 0 prints the table.
 * The launcher (mpirun, srun, or railyard itself) only has to give each process its rank, the size and the address.
 */
public final class TcpRendezvous implements RankGroup {

    private final int rank;
    private final int nranks;
    private final List<Socket> peers = new ArrayList<>();
    private final byte[] uniqueId;

    private TcpRendezvous(int rank, int nranks, byte[] uniqueId) {
        this.rank = rank;
        this.nranks = nranks;
        this.uniqueId = uniqueId;
    }

    /**
     * Rank 0 creates the id with {@code newId} and serves it; the others connect (retrying until {@code timeout})
     * and read it.
     */
    public static TcpRendezvous join(InetSocketAddress address, int rank, int nranks, Supplier<byte[]> newId,
                                     Duration timeout) {
        String at = address.getHostString() + ":" + address.getPort();
        try {
            return rank == 0 ? serve(address, nranks, newId.get(), timeout) : connect(address, rank, nranks, timeout);
        } catch (BindException e) {
            boolean inUse = String.valueOf(e.getMessage()).contains("in use");
            throw new RailyardException.Usage(inUse ? "rank 0 cannot listen on " + at + ": the port is in use"
                    : "rank 0 cannot listen on " + at + ": that address is not on this host",
                    inUse ? "pick another port in --rendezvous" : "give rank 0's own host name or address in --rendezvous");
        } catch (SocketTimeoutException e) {
            throw new RailyardException.MissingPrerequisite("rank 0 waited " + timeout.toSeconds() + " s at " + at
                    + " and not every rank came", "start all " + nranks + " ranks with the same --rendezvous and --nranks");
        } catch (IOException e) {
            throw new RailyardException.MissingPrerequisite("rank " + rank + " could not reach rank 0 at " + at
                    + " within " + timeout.toSeconds() + " s", "start rank 0 too, and let TCP port " + address.getPort()
                    + " through between the nodes");
        }
    }

    private static TcpRendezvous serve(InetSocketAddress address, int nranks, byte[] id, Duration timeout)
            throws IOException {
        TcpRendezvous r = new TcpRendezvous(0, nranks, id);
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(address);
            server.setSoTimeout((int) timeout.toMillis());
            for (int i = 1; i < nranks; i++) {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                new DataInputStream(s.getInputStream()).readInt(); // the peer's rank, for ordering-free accept
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeInt(id.length);
                out.write(id);
                out.flush();
                r.peers.add(s);
            }
        }
        return r;
    }

    private static TcpRendezvous connect(InetSocketAddress address, int rank, int nranks, Duration timeout)
            throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Socket s = new Socket();
            try {
                s.connect(address, 2000);
                s.setTcpNoDelay(true);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeInt(rank);
                out.flush();
                DataInputStream in = new DataInputStream(s.getInputStream());
                byte[] id = new byte[in.readInt()];
                in.readFully(id);
                TcpRendezvous r = new TcpRendezvous(rank, nranks, id);
                r.peers.add(s);
                return r;
            } catch (IOException e) {
                s.close();
                if (System.nanoTime() > deadline) throw e;
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for rank 0", ie);
                }
            }
        }
    }

    public byte[] uniqueId() {
        return uniqueId.clone();
    }

    @Override
    public boolean reports() {
        return rank == 0;
    }

    @Override
    public double averageSeconds(double localSeconds) {
        return combine(localSeconds, true);
    }

    @Override
    public long sumWrong(long localWrong) {
        return (long) combine(localWrong, false);
    }

    private double combine(double local, boolean average) {
        try {
            if (rank != 0) {
                DataOutputStream out = new DataOutputStream(peers.getFirst().getOutputStream());
                out.writeDouble(local);
                out.flush();
                return new DataInputStream(peers.getFirst().getInputStream()).readDouble();
            }
            double total = local;
            for (Socket s : peers) total += new DataInputStream(s.getInputStream()).readDouble();
            double result = average ? total / nranks : total;
            for (Socket s : peers) {
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeDouble(result);
                out.flush();
            }
            return result;
        } catch (IOException e) {
            throw new RailyardException.MissingPrerequisite("lost the connection to another rank while combining results",
                    "another rank stopped; its own error says why");
        }
    }

    @Override
    public void close() {
        for (Socket s : peers) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing at the end of a run; nothing to recover
            }
        }
    }
}
