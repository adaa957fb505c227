package io.arcon.tss.lang;

import io.arcon.tss.model.Names;

/** {@code DROP TSS name}: removes a TSS definition. */
public record DropTss(String name) implements Statement {
  public DropTss {
    Names.requireValid(name, "TSS");
  }
}
