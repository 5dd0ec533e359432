package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.datsim.core.time.ByteSize;

/**
 * Notes on sizes written in SI units ({@code "4KB"}, {@code "1.5MB"}): correct, and accepted, but a KB is 1,000
 * bytes, and a reader who meant the 4 KiB of a page or an MTU gets 96 bytes less. {@code datsim validate} prints one
 * note per such value, with its JSON path, and still calls the file valid.
 */
public final class SizeNotes {

    private static final Pattern SI = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?) ?(kB|KB|MB|GB|TB)\\s*");

    private SizeNotes() {
    }

    /**
     * Finds the SI sizes of a scenario file's tree.
     *
     * @param file the file's name, as messages give it
     * @param root the file's JSON
     * @return one note per SI size, such as {@code f.json: $.fabric.params.hca.mtu: note: "4KB" is 4,000 bytes (SI
     *     units); for 4 KiB (4,096 bytes) write "4KiB"}
     */
    public static List<String> of(String file, JsonNode root) {
        List<String> out = new ArrayList<>();
        walk(file, root, "$", out);
        return out;
    }

    private static void walk(String file, JsonNode n, String path, List<String> out) {
        if (out.size() >= 100) {
            return;
        }
        if (n.isTextual()) {
            note(file, n.asText(), path, out);
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                walk(file, n.get(i), path + "[" + i + "]", out);
            }
        } else if (n.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = n.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                walk(file, e.getValue(), path + "." + e.getKey(), out);
            }
        }
    }

    private static void note(String file, String text, String path, List<String> out) {
        Matcher m = SI.matcher(text);
        if (!m.matches()) {
            return;
        }
        long bytes;
        try {
            bytes = ByteSize.parse(text.trim());
        } catch (IllegalArgumentException e) {
            return;
        }
        String binary = m.group(2).substring(0, 1).toUpperCase(java.util.Locale.ROOT) + "iB";
        String meant;
        try {
            meant = String.format(java.util.Locale.ROOT, "%,d", ByteSize.parse(m.group(1) + binary));
        } catch (IllegalArgumentException e) {
            return;
        }
        String si = String.format(java.util.Locale.ROOT, "%,d", bytes);
        out.add(file + ": " + path + ": note: \"" + text + "\" is " + si + " bytes (SI units); for " + m.group(1) + " "
                + binary + " (" + meant + " bytes) write \"" + m.group(1) + binary + "\"");
    }
}
