package dev.railyard.platform;

import java.net.BindException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * What an I/O failure means, in words for the person at the terminal: "no such file", "disk full", "not text". Java's
 * own messages name exception classes ("java.nio.file.NoSuchFileException: /x") or say nothing useful
 * ("Input length = 1"), and those must never reach a user.
 */
public final class IoErrors {

    private IoErrors() {
    }

    public static String describe(Exception e) {
        String reason = switch (e) {
            case NoSuchFileException n -> "no such file or directory";
            case AccessDeniedException a -> "permission denied";
            case FileAlreadyExistsException f -> "it already exists";
            case NotDirectoryException d -> "not a directory";
            case DirectoryNotEmptyException d -> "the directory is not empty";
            case CharacterCodingException c -> "not text (not UTF-8): is it the right file?";
            case FileSystemException f -> f.getReason() != null ? f.getReason() : "";
            case UnknownHostException u -> "unknown host";
            case BindException b -> bindReason(b);
            case ConnectException c -> "connection refused";
            case NoRouteToHostException r -> "no route to host";
            default -> e.getMessage() == null ? "" : e.getMessage();
        };
        return plain(reason);
    }

    /** The common kernel wordings, made plain ("No space left on device" is "disk full"). */
    public static String plain(String reason) {
        String r = reason.strip();
        if (r.contains("No space left on device") || r.contains("Disk quota exceeded")) return "disk full";
        if (r.equals("Is a directory")) return "it is a directory, not a file";
        if (r.isEmpty()) return "input/output error";
        return r.substring(0, 1).toLowerCase(java.util.Locale.ROOT) + r.substring(1);
    }

    private static String bindReason(BindException b) {
        String m = String.valueOf(b.getMessage());
        if (m.contains("Cannot assign requested address")) return "that address is not on this host";
        if (m.contains("Address already in use")) return "the port is in use";
        if (m.contains("Permission denied")) return "permission denied (ports below 1024 need root)";
        return m;
    }

    /** HOST:PORT as people write it ("10.0.0.2:5201", "[::]:5201"), not Java's "/10.0.0.2:5201". */
    public static String address(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        if (a.getAddress() != null && a.getAddress().isAnyLocalAddress()) host = host.contains(":") ? "::" : "0.0.0.0";
        if (host.contains(":")) host = "[" + compressV6(host) + "]";
        return host + ":" + a.getPort();
    }

    private static String compressV6(String host) {
        return host.equals("0:0:0:0:0:0:0:0") ? "::" : host.equals("0:0:0:0:0:0:0:1") ? "::1" : host;
    }
}
