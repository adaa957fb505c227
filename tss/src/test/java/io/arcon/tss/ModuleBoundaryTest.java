package io.arcon.tss;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Pipelines put arcon-tss on their classpath for the agent, the writers and the embedded control
 * plane; the shell and its dependencies live in tss-cli and must not come along.
 */
class ModuleBoundaryTest {
  @Test
  void theShellAndItsDependenciesAreNotOnThisModulesClasspath() {
    for (String shellClass :
        new String[] {
          "io.arcon.tss.cli.TssCli", "picocli.CommandLine", "org.jline.reader.LineReader"
        }) {
      assertThrows(
          ClassNotFoundException.class,
          () -> Class.forName(shellClass, false, getClass().getClassLoader()),
          shellClass + " is reachable from arcon-tss; it belongs to tss-cli");
    }
  }
}
