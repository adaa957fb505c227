package io.arcon.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ConfigurationListTest {
  private static final String[] ALL = {"heap", "rocksdb", "lmdb"};
  private static final Function<String, String> NAME = Function.identity();

  @Test
  void keepsTheOrderGivenAndSkipsBlanks() {
    assertEquals(List.of("lmdb", "heap"), ConfigurationList.parse(" lmdb,, heap ", ALL, NAME, ""));
    assertEquals(List.of(), ConfigurationList.parse("", ALL, NAME, ""));
  }

  @Test
  void namesTheKnownConfigurationsForAnUnknownOne() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ConfigurationList.parse("heap,mem", ALL, NAME, " (in --engines)"));
    assertTrue(e.getMessage().contains("'mem'"), e.getMessage());
    assertTrue(e.getMessage().contains("heap,rocksdb,lmdb (in --engines)"), e.getMessage());
  }

  @Test
  void parseNonEmptyRefusesAListThatNamesNothing() {
    assertEquals(
        List.of("rocksdb"), ConfigurationList.parseNonEmpty("--engines", "rocksdb", ALL, NAME, ""));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ConfigurationList.parseNonEmpty("--engines", " , ", ALL, NAME, ""));
    assertEquals(
        "--engines is empty; use a comma-separated subset of heap,rocksdb,lmdb", e.getMessage());
  }
}
