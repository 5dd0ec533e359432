package org.datsim.scenario.load;

import org.datsim.core.util.Text;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * The problems found in one input file (a scenario, a study), in the order found, each worded {@code "FILE: PATH:
 * MESSAGE"}; and the wording every reader of such files shares: how a found value is shown, unknown fields, and
 * string fields.
 */
public final class Problems {

    private final String file;
    private final List<String> messages = new ArrayList<>();

    /**
     * Starts with no problems.
     *
     * @param file the file's name as messages give it
     */
    public Problems(String file) {
        this.file = file;
    }

    /** Returns the file's name as messages give it. */
    String file() {
        return file;
    }

    /** Records a problem at a JSON path. */
    public void add(String path, String message) {
        messages.add(file + ": " + path + ": " + message);
    }

    /** Records a problem worded in full elsewhere, naming its own file and place (such as another file's). */
    public void addWorded(String message) {
        messages.add(message);
    }

    /** Returns how many problems were recorded so far, to tell whether a check added any. */
    public int count() {
        return messages.size();
    }

    /** Returns the messages recorded so far. */
    public List<String> messages() {
        return messages;
    }

    /**
     * Shows a found value in a message: its JSON, control characters escaped, cut to 60 characters saying its
     * length, or "nothing" when absent.
     */
    public static String show(JsonNode n) {
        return n == null ? "nothing" : Text.clean(n.toString(), 60);
    }

    /** Reports each field of {@code obj} that is not in {@code allowed}. */
    public void unknownKeys(JsonNode obj, String path, Set<String> allowed) {
        unknownKeys(obj, path, allowed, this::add);
    }

    /**
     * Reports each field of {@code obj} that is not in {@code allowed}, listing the allowed ones in order.
     *
     * @param problem receives (JSON path, message) for each unknown field
     * @return true if there was any
     */
    static boolean unknownKeys(JsonNode obj, String path, Set<String> allowed, BiConsumer<String, String> problem) {
        boolean found = false;
        Iterator<String> it = obj.fieldNames();
        while (it.hasNext()) {
            String k = it.next();
            if (!allowed.contains(k)) {
                problem.accept(path + "." + k, "unknown field; expected one of " + new TreeSet<>(allowed)
                        + org.datsim.core.param.Suggestions.hint(k, new TreeSet<>(allowed)));
                found = true;
            }
        }
        return found;
    }

    /** Reads a string field; reports it missing (when required) or not a string, and returns null then. */
    public String string(JsonNode obj, String key, String path, boolean required) {
        JsonNode n = obj.get(key);
        if (n == null) {
            if (required) {
                add(path + "." + key, "missing; expected a string");
            }
            return null;
        }
        if (!n.isTextual()) {
            add(path + "." + key, "expected a string, found " + show(n));
            return null;
        }
        return n.asText();
    }
}
