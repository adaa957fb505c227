package io.arcon.tss.lang;

import io.arcon.tss.model.Names;

/** {@code DESCRIBE APP app}: shows an application's exportable states and their consistency. */
public record DescribeApp(String app) implements Statement {
  public DescribeApp {
    Names.requireValid(app, "app");
  }
}
