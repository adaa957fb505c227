package io.arcon.tss.lang;

/**
 * A state named in {@code EXTRACT}: {@code app1.clicks} is {@code ("app1", "clicks")}; a state
 * qualified by its transform, {@code app1.CountClicks.count}, is {@code ("app1",
 * "CountClicks.count")}.
 */
public record StateRef(String app, String state) {
  public StateRef {
    Names.requireValid(app, "app");
    if (state == null) {
      throw new IllegalArgumentException("state name is null: name a state as app.state");
    }
    String[] parts = state.split("\\.", -1);
    if (parts.length > 2) {
      throw new IllegalArgumentException(
          "invalid state name '" + state + "': use state or transform.state");
    }
    for (String part : parts) {
      Names.requireValid(part, "state");
    }
  }

  /** The reference as written in a statement, e.g. {@code app1.CountClicks.count}. */
  @Override
  public String toString() {
    return app + "." + state;
  }
}
