package org.datsim.core.choice;

/**
 * What models consult at a {@link ChoicePoint}. The default, {@link #TIMING}, always answers 0, the timing model's
 * own choice, and says it is not {@link #exploring()}: models check that first and skip the work of describing a
 * point's alternatives, so a run without choices costs one field check per point and behaves exactly as before.
 * A {@link VectorChoices} replays a choice vector (and, past its end, takes 0 or a seeded random alternative) and
 * records the branching factor at each point, which is what the explorer needs.
 */
public interface ChoiceSource {

    /** The timing model's choice everywhere. */
    ChoiceSource TIMING = new ChoiceSource() {
        @Override
        public int choose(ChoicePoint point, int alternatives, String host) {
            return 0;
        }

        @Override
        public boolean exploring() {
            return false;
        }

        @Override
        public boolean reduce() {
            return true;
        }
    };

    /**
     * Returns the alternative taken at one occurrence of a point.
     *
     * @param point the point
     * @param alternatives how many alternatives there are (at least 2); 0 is the timing model's own
     * @param host the host where it happens (for traces)
     * @return the alternative, in {@code [0, alternatives)}
     */
    int choose(ChoicePoint point, int alternatives, String host);

    /**
     * Returns whether models should describe their choice points at all; false for {@link #TIMING}.
     *
     * @return true if models must call {@link #choose}
     */
    boolean exploring();

    /**
     * Returns whether models may skip a point whose alternatives cannot differ in anything a consumer observes
     * (they touch no common byte, endpoint or event queue): the explorer's partial-order reduction. False makes
     * models offer every point that exists, for measuring what the reduction saves.
     *
     * @return true to skip independent points
     */
    boolean reduce();
}
