package io.arcon.tss.lang;

import io.arcon.tss.model.Names;

/**
 * A state named in {@code EXTRACT}: {@code app1.clicks} is {@code ("app1", "clicks")}; a state
 * qualified by its transform, {@code app1.CountClicks.count}, is {@code ("app1",
 * "CountClicks.count")}.
 */
public record StateRef(String app, String state) {
  public StateRef {
    Names.requireValid(app, "app");
    Names.requireValidState(state);
  }

  /** The reference as written in a statement, e.g. {@code app1.CountClicks.count}. */
  @Override
  public String toString() {
    return app + "." + state;
  }
}
