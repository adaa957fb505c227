package io.arcon.tss.lang;

import io.arcon.tss.model.Names;

/** {@code DESCRIBE TSS name}: shows a TSS definition and the state of each of its versions. */
public record DescribeTss(String name) implements Statement {
  public DescribeTss {
    Names.requireValid(name, "TSS");
  }
}
