package org.datsim.core.param;

import java.util.List;
import java.util.Objects;
import org.datsim.core.time.ByteSize;
import org.datsim.core.time.DataRate;
import org.datsim.core.time.SimTime;
import org.datsim.core.time.UnitParseException;

/**
 * The declaration of one model parameter: its name, kind (and so its unit), default and description. A model declares
 * each of its parameters once as a {@code static final ParamSpec}; the catalogue printed by the command line and the
 * documentation are rendered from these declarations.
 *
 * <p>Every value is held as a {@code long}: picoseconds for {@link Kind#TIME}, bits per second for {@link Kind#RATE},
 * bytes for {@link Kind#BYTES}, the number itself for {@link Kind#INT}, 0 or 1 for {@link Kind#BOOL}, and the index
 * into {@link #choices()} for {@link Kind#CHOICE}.
 */
public final class ParamSpec {

        /** The kinds of parameter and the text each accepts. */
        public enum Kind {
                /** A duration such as "250ns"; held in picoseconds. */
                TIME("a time such as \"250ns\" or \"1.5us\""),
                /** A data rate such as "100Gbps"; held in bits per second. */
                RATE("a data rate such as \"100Gbps\""),
                /** A size such as "4KiB" or a plain byte count; held in bytes. */
                BYTES("a size such as \"4KiB\" or a byte count"),
                /** A whole number. */
                INT("a whole number"),
                /** true or false. */
                BOOL("true or false"),
                /** One of a fixed list of names. */
                CHOICE("one of the listed names");

                private final String expected;

                Kind(String expected) {
                        this.expected = expected;
                }

                /** Returns a human description of the text this kind accepts, for error messages. */
                public String expected() {
                        return expected;
                }
        }

        private final String name;
        private final Kind kind;
        private final long defaultValue;
        private final long min;
        private final long max;
        private final String description;
        private final List<String> choices;

        private ParamSpec(String name, Kind kind, long defaultValue, long min, long max, String description,
                        List<String> choices) {
                this.name = Objects.requireNonNull(name);
                this.kind = kind;
                this.defaultValue = defaultValue;
                this.min = min;
                this.max = max;
                this.description = Objects.requireNonNull(description);
                this.choices = choices;
                if (defaultValue < min || defaultValue > max) {
                        throw new IllegalArgumentException("default of " + name + " is outside [" + min + ", " + max + "]");
                }
        }

        /**
         * Declares a time parameter.
         *
         * @param name the dotted parameter name, for example {@code "pcie.latency"}
         * @param defaultText the default, for example {@code "250ns"}
         * @param description one sentence saying what the time is
         * @return the declaration
         */
        public static ParamSpec time(String name, String defaultText, String description) {
                return new ParamSpec(name, Kind.TIME, SimTime.parse(defaultText), 0, Long.MAX_VALUE, description, List.of());
        }

        /**
         * Declares a data-rate parameter (at least 1 bit per second).
         *
         * @param name the dotted parameter name
         * @param defaultText the default, for example {@code "100Gbps"}
         * @param description one sentence
         * @return the declaration
         */
        public static ParamSpec rate(String name, String defaultText, String description) {
                return new ParamSpec(name, Kind.RATE, DataRate.parse(defaultText).bitsPerSecond(), 1, Long.MAX_VALUE,
                                description, List.of());
        }

        /**
         * Declares a size parameter in bytes, bounded inclusively.
         *
         * @param name the dotted parameter name
         * @param defaultText the default, for example {@code "4KiB"}
         * @param min the smallest accepted value in bytes
         * @param max the largest accepted value in bytes
         * @param description one sentence
         * @return the declaration
         */
        public static ParamSpec bytes(String name, String defaultText, long min, long max, String description) {
                return new ParamSpec(name, Kind.BYTES, ByteSize.parse(defaultText), min, max, description, List.of());
        }

        /**
         * Declares a whole-number parameter, bounded inclusively.
         *
         * @param name the dotted parameter name
         * @param defaultValue the default
         * @param min the smallest accepted value
         * @param max the largest accepted value
         * @param description one sentence
         * @return the declaration
         */
        public static ParamSpec integer(String name, long defaultValue, long min, long max, String description) {
                return new ParamSpec(name, Kind.INT, defaultValue, min, max, description, List.of());
        }

        /**
         * Declares a boolean parameter.
         *
         * @param name the dotted parameter name
         * @param defaultValue the default
         * @param description one sentence
         * @return the declaration
         */
        public static ParamSpec bool(String name, boolean defaultValue, String description) {
                return new ParamSpec(name, Kind.BOOL, defaultValue ? 1 : 0, 0, 1, description, List.of());
        }

        /**
         * Declares a parameter that takes one of a fixed list of names.
         *
         * @param name the dotted parameter name
         * @param defaultChoice the default, which must be one of {@code choices}
         * @param description one sentence
         * @param choices the accepted names, in the order their indexes are held
         * @return the declaration
         */
        public static ParamSpec choice(String name, String defaultChoice, String description, String... choices) {
                List<String> list = List.of(choices);
                int index = list.indexOf(defaultChoice);
                if (index < 0) {
                        throw new IllegalArgumentException("default " + defaultChoice + " of " + name + " is not a choice");
                }
                return new ParamSpec(name, Kind.CHOICE, index, 0, list.size() - 1, description, list);
        }

        /** Returns the dotted parameter name. */
        public String name() {
                return name;
        }

        /** Returns the kind, which fixes the unit of the held value. */
        public Kind kind() {
                return kind;
        }

        /** Returns the default as a held value (see the class comment for units). */
        public long defaultValue() {
                return defaultValue;
        }

        /** Returns the one-sentence description. */
        public String description() {
                return description;
        }

        /** Returns the accepted names of a {@link Kind#CHOICE} parameter, or an empty list for other kinds. */
        public List<String> choices() {
                return choices;
        }

        /** Returns the unit of the held value as shown in catalogues: "ps", "bit/s", "B" or "". */
        public String unit() {
                switch (kind) {
                        case TIME:
                                return "ps";
                        case RATE:
                                return "bit/s";
                        case BYTES:
                                return "B";
                        default:
                                return "";
                }
        }

        /**
         * Parses user text (from a scenario, a study axis or the command line) into a held value.
         *
         * @param text the text, for example {@code "250ns"}, {@code "4KiB"}, {@code "12"} or {@code "true"}
         * @return the held value
         * @throws UnitParseException if the text is not of this kind or is out of range; the message says what was
         *     expected and what was found
         */
        public long parse(String text) {
                long value;
                switch (kind) {
                        case TIME:
                                value = SimTime.parse(text);
                                break;
                        case RATE:
                                value = DataRate.parse(text).bitsPerSecond();
                                break;
                        case BYTES:
                                value = ByteSize.parse(text);
                                break;
                        case INT:
                                try {
                                        value = Long.parseLong(text.trim());
                                } catch (NumberFormatException e) {
                                        throw new UnitParseException("expected " + kind.expected + ", found \"" + text + "\"");
                                }
                                break;
                        case BOOL:
                                if ("true".equals(text)) {
                                        value = 1;
                                } else if ("false".equals(text)) {
                                        value = 0;
                                } else {
                                        throw new UnitParseException("expected true or false, found \"" + text + "\"");
                                }
                                break;
                        default:
                                value = choices.indexOf(text);
                                if (value < 0) {
                                        throw new UnitParseException("expected one of " + choices + ", found \"" + text + "\"");
                                }
                                break;
                }
                if (value < min || value > max) {
                        throw new UnitParseException("expected a value from " + format(min) + " to " + format(max) + ", found \""
                                        + text + "\"");
                }
                return value;
        }

        /**
         * Formats a held value back into user text.
         *
         * @param value a held value of this parameter
         * @return the text, for example {@code "250ns"}
         */
        public String format(long value) {
                switch (kind) {
                        case TIME:
                                return SimTime.formatExact(value);
                        case RATE:
                                return DataRate.ofBitsPerSecond(value).toString();
                        case BYTES:
                                return ByteSize.format(value);
                        case BOOL:
                                return value != 0 ? "true" : "false";
                        case CHOICE:
                                return choices.get((int) value);
                        default:
                                return Long.toString(value);
                }
        }

        @Override
        public String toString() {
                return name + " = " + format(defaultValue) + " (" + description + ")";
        }
}
