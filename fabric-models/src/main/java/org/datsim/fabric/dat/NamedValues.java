package org.datsim.fabric.dat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One group of named DAT constants (event numbers, completion flags, ...) with lookups both ways, so scenarios can
 * use the header names and traces can print them.
 */
public final class NamedValues {

    private final String group;
    private final Map<String, Integer> byName = new LinkedHashMap<>();
    private final Map<Integer, String> byValue = new LinkedHashMap<>();

    NamedValues(String group, Object... namesAndValues) {
        this.group = group;
        for (int i = 0; i < namesAndValues.length; i += 2) {
            String name = (String) namesAndValues[i];
            int value = (Integer) namesAndValues[i + 1];
            byName.put(name, value);
            byValue.putIfAbsent(value, name);
        }
    }

    /** Returns the group's name, for example "completion flag". */
    public String group() {
        return group;
    }

    /** Returns the value of a name, or null if the group has no such name. */
    public Integer value(String name) {
        return byName.get(name);
    }

    /** Returns the first name declared for a value, or a hexadecimal rendering if there is none. */
    public String name(int value) {
        String name = byValue.get(value);
        return name != null ? name : String.format("0x%x", value);
    }

    /** Returns every name of the group in declaration order. */
    public List<String> names() {
        return Collections.unmodifiableList(new ArrayList<>(byName.keySet()));
    }

    /**
     * Renders a bit set of this group's flags as names joined by {@code |}, for example
     * {@code "DAT_MEM_PRIV_LOCAL_READ_FLAG|DAT_MEM_PRIV_REMOTE_WRITE_FLAG"}.
     *
     * @param bits the flags
     * @return the names, or the name of value 0 when no bit is set
     */
    public String flagNames(int bits) {
        if (bits == 0 || byValue.containsKey(bits) && Integer.bitCount(bits) == 1) {
            return name(bits);
        }
        StringBuilder sb = new StringBuilder();
        int rest = bits;
        for (Map.Entry<Integer, String> e : byValue.entrySet()) {
            int v = e.getKey();
            if (Integer.bitCount(v) == 1 && (rest & v) != 0) {
                if (sb.length() > 0) {
                    sb.append('|');
                }
                sb.append(e.getValue());
                rest &= ~v;
            }
        }
        if (rest != 0) {
            if (sb.length() > 0) {
                sb.append('|');
            }
            sb.append(String.format("0x%x", rest));
        }
        return sb.toString();
    }
}
