package org.datsim.core.param;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.time.DataRate;

/**
 * Resolved values for a fixed catalogue of {@link ParamSpec}s: every declared parameter has a value, its default
 * unless overridden. Immutable once built. Lookups are by declaration and cost one array read.
 */
public final class Params {

        private final List<ParamSpec> specs;
        private final Map<String, Integer> index;
        private final long[] values;

        private Params(List<ParamSpec> specs, Map<String, Integer> index, long[] values) {
                this.specs = specs;
                this.index = index;
                this.values = values;
        }

        /**
         * Returns the defaults of a catalogue.
         *
         * @param specs the declarations, whose names must be unique
         * @return parameters holding every default
         */
        public static Params defaults(List<ParamSpec> specs) {
                Map<String, Integer> index = new LinkedHashMap<>();
                long[] values = new long[specs.size()];
                for (int i = 0; i < specs.size(); i++) {
                        ParamSpec spec = specs.get(i);
                        if (index.put(spec.name(), i) != null) {
                                throw new IllegalArgumentException("parameter " + spec.name() + " is declared twice");
                        }
                        values[i] = spec.defaultValue();
                }
                return new Params(List.copyOf(specs), Collections.unmodifiableMap(index), values);
        }

        /**
         * Returns a copy with some values replaced from user text. Every problem is collected, none stops the others.
         *
         * @param overrides parameter names and their text, in the order they were written
         * @param problems receives one message per unknown name or bad value, of the form {@code "name: expected ..."}
         * @return the new parameters (overrides that failed keep the previous value)
         */
        public Params with(Map<String, String> overrides, List<String> problems) {
                long[] copy = values.clone();
                for (Map.Entry<String, String> e : overrides.entrySet()) {
                        Integer i = index.get(e.getKey());
                        if (i == null) {
                                problems.add(e.getKey() + ": unknown parameter (see `datsim params` for the catalogue)"
                                        + Suggestions.hint(e.getKey(), index.keySet()));
                                continue;
                        }
                        try {
                                copy[i] = specs.get(i).parse(e.getValue());
                        } catch (IllegalArgumentException ex) {
                                problems.add(e.getKey() + ": " + ex.getMessage());
                        }
                }
                return new Params(specs, index, copy);
        }

        /** Returns true if a parameter of that name is declared. */
        public boolean declares(String name) {
                return index.containsKey(name);
        }

        /** Returns the declarations in declaration order. */
        public List<ParamSpec> specs() {
                return specs;
        }

        /**
         * Returns the held value of a parameter (see {@link ParamSpec} for units).
         *
         * @param spec a declaration of this catalogue
         * @return its value
         */
        public long get(ParamSpec spec) {
                Integer i = index.get(spec.name());
                if (i == null || specs.get(i) != spec) {
                        throw new IllegalArgumentException("parameter " + spec.name() + " is not in this catalogue");
                }
                return values[i];
        }

        /** Returns a rate parameter as a {@link DataRate}. */
        public DataRate rate(ParamSpec spec) {
                return DataRate.ofBitsPerSecond(get(spec));
        }

        /** Returns a boolean parameter. */
        public boolean bool(ParamSpec spec) {
                return get(spec) != 0;
        }

        /** Returns the chosen name of a choice parameter. */
        public String choice(ParamSpec spec) {
                return spec.choices().get((int) get(spec));
        }

        /** Returns every parameter as user text, in declaration order (for summaries and catalogues). */
        public Map<String, String> asText() {
                Map<String, String> out = new LinkedHashMap<>();
                for (int i = 0; i < specs.size(); i++) {
                        out.put(specs.get(i).name(), specs.get(i).format(values[i]));
                }
                return out;
        }

        /** Returns the names of every parameter, in declaration order. */
        public List<String> names() {
                return new ArrayList<>(index.keySet());
        }
}
