package dev.railyard.platform;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A file name as text that names it exactly: kernel names are bytes (an interface may be called "eth\xff0"), while
 * reports, metric labels and JSON need text. Printable UTF-8 stays as it is; every other byte, and the backslash
 * itself, is written {@code \xNN}, as udev writes names. The text turns back into the same bytes, so a name read from
 * a directory can be opened again, and two names never share one series.
 */
public final class FileNameText {

    private FileNameText() {}

    /** The text of a name (or a path) the kernel gave as bytes. */
    public static String of(byte[] name) {
        StringBuilder out = new StringBuilder(name.length);
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        int i = 0;
        while (i < name.length) {
            int b = name[i] & 0xff;
            int len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
            String ch = null;
            if (len > 0 && i + len <= name.length) {
                try {
                    ch = utf8.reset().decode(ByteBuffer.wrap(name, i, len)).toString();
                } catch (CharacterCodingException e) {
                    ch = null;
                }
            }
            if (ch == null || !printable(ch)) {
                out.append(String.format("\\x%02x", b));
                i++;
            } else {
                out.append(ch);
                i += len;
            }
        }
        return out.toString();
    }

    /** The bytes a text from {@link #of} stands for (any other text: its UTF-8). */
    public static byte[] bytes(String text) {
        if (isPlain(text)) return text.getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("\\x", i) && i + 4 <= text.length() && hex(text.charAt(i + 2)) >= 0 && hex(text.charAt(i + 3)) >= 0) {
                out.write(hex(text.charAt(i + 2)) * 16 + hex(text.charAt(i + 3)));
                i += 4;
                continue;
            }
            int cp = text.codePointAt(i);
            out.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
            i += Character.charCount(cp);
        }
        return out.toByteArray();
    }

    /** Printable ASCII without a backslash: the same bytes in every encoding the JDK could be started with. */
    public static boolean isPlain(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '\\') return false;
        }
        return true;
    }

    private static boolean printable(String ch) {
        int cp = ch.codePointAt(0);
        return cp != '\\' && !Character.isISOControl(cp) && Character.getType(cp) != Character.FORMAT
                && Character.getType(cp) != Character.UNASSIGNED;
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }
}
