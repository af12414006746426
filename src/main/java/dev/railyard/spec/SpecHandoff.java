package dev.railyard.spec;

import dev.railyard.model.RailyardException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * How validate hands a node its spec: the file's text, gzipped and base64url-encoded into one argument
 * ({@code railyard check --spec-base64 DATA}). Nothing is copied to the node and no temporary file is left behind;
 * the text survives any transport's quoting (ssh, srun) since base64url has no shell metacharacters. A spec of a
 * thousand nodes compresses to tens of KB, well under Linux's 128 KiB limit for one argument.
 */
public final class SpecHandoff {

    private SpecHandoff() {
    }

    public static String encode(String specText) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(specText.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.toByteArray());
    }

    public static String decode(String data) {
        try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(Base64.getUrlDecoder().decode(data.strip())))) {
            return new String(gz.readNBytes(16 << 20), StandardCharsets.UTF_8);
        } catch (IOException | IllegalArgumentException e) {
            throw new RailyardException.Usage("--spec-base64 is not a gzipped, base64url-encoded spec: " + e.getMessage(),
                    "validate writes this argument; to pass a file use --spec FILE");
        }
    }
}
