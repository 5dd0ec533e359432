package org.datsim.core.choice;

/**
 * A named place in a model where the rules the model follows allow more than one order, and the timing model makes
 * one of them. Models declare their points as constants and ask a {@link ChoiceSource} at each occurrence which
 * alternative happens; alternative 0 is always the timing model's own.
 *
 * @param name the point's name, as traces and reports show it ({@code area.what})
 * @param rule where the freedom comes from (a rule number of the reference, or a short citation)
 * @param meaning what the alternatives are, one sentence
 */
public record ChoicePoint(String name, String rule, String meaning) {
}
