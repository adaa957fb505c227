package io.arcon.tss.lang;

import io.arcon.tss.model.Names;

/**
 * {@code DROP APP app}: forgets an app that is not running and whose state no TSS extracts, so that
 * {@code SHOW APPS} no longer lists it.
 */
public record DropApp(String app) implements Statement {
  public DropApp {
    Names.requireValid(app, "app");
  }
}
