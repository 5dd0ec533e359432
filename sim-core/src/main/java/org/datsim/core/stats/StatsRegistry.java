package org.datsim.core.stats;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Holds the statistics of a run by unique name, in registration order, so a report can list them
 * deterministically. Any object may be registered, typically a {@link Counter}, {@link Tally} or
 * {@link LatencyRecorder}.
 */
public final class StatsRegistry {

    private final Map<String, Object> stats = new LinkedHashMap<>();
    private final Map<String, Object> view = Collections.unmodifiableMap(stats);

    /** Creates an empty registry. */
    public StatsRegistry() {}

    /**
     * Registers a statistic under a name and returns it, so it can be created inline: {@code Counter
     * drops = registry.register("drops", new Counter("drops", "packets"));}. Costs a hash insertion.
     *
     * @param <S> the type of the statistic
     * @param name the unique name
     * @param stat the statistic
     * @return {@code stat}
     * @throws IllegalArgumentException if the name is already registered
     * @throws NullPointerException if {@code name} or {@code stat} is null
     */
    public <S> S register(String name, S stat) {
        if (name == null || stat == null) {
            throw new NullPointerException("a statistic needs a name and a value");
        }
        if (stats.containsKey(name)) {
            throw new IllegalArgumentException("a statistic named \"" + name + "\" is already registered");
        }
        stats.put(name, stat);
        return stat;
    }

    /**
     * Returns the statistic registered under a name.
     *
     * @param name the name
     * @return the statistic, or null if none is registered under that name
     */
    public Object get(String name) {
        return stats.get(name);
    }

    /**
     * Returns all statistics by name, in registration order. The map is an unmodifiable live view.
     *
     * @return the statistics
     */
    public Map<String, Object> stats() {
        return view;
    }
}
