package dev.railyard.report;

/** IPv4-mapped GIDs (::ffff:a.b.c.d), the RoCE v2 entries that ib_write_bw -x and NCCL_IB_GID_INDEX want. */
final class Gid4 {

    private Gid4() {
    }

    static boolean isIpv4Mapped(String gid) {
        String hex = gid.replace(":", "").toLowerCase(java.util.Locale.ROOT);
        return hex.length() == 32 && hex.startsWith("00000000000000000000ffff");
    }

    /** "0000:0000:0000:0000:0000:ffff:0a00:0101" -> "10.0.1.1"; the GID itself when it is not IPv4-mapped. */
    static String ipv4(String gid) {
        if (!isIpv4Mapped(gid)) return gid;
        String hex = gid.replace(":", "").substring(24);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i += 2) {
            if (i > 0) out.append('.');
            out.append(Integer.parseInt(hex.substring(i, i + 2), 16));
        }
        return out.toString();
    }
}
