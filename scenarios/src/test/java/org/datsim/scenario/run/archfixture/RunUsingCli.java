package org.datsim.scenario.run.archfixture;

import org.datsim.scenario.cli.DatsimCli;

/** Breaks a layering rule on purpose (for LayeringRulesFailTest): a package below the CLI that uses it. */
public final class RunUsingCli {
    DatsimCli cli;
}
