package io.arcon.runtime.graph;

/** A connection from an operator output of one vertex to an operator input port of another. */
public final class Edge {
  private final int id;
  private final Vertex source;
  private final int sourceOperator;
  private final int sourceOutput;
  private final Vertex target;
  private final int targetOperator;
  private final int targetPort;
  private final EdgeKind kind;
  private final KeyExtractor keyExtractor;

  Edge(
      int id,
      Vertex source,
      int sourceOperator,
      int sourceOutput,
      Vertex target,
      int targetOperator,
      int targetPort,
      EdgeKind kind,
      KeyExtractor keyExtractor) {
    if (kind == EdgeKind.KEYED && keyExtractor == null) {
      throw new IllegalArgumentException("A keyed edge needs a key extractor");
    }
    if (kind == EdgeKind.FORWARD && source.parallelism() != target.parallelism()) {
      throw new IllegalArgumentException("A forward edge needs equal parallelism");
    }
    this.id = id;
    this.source = source;
    this.sourceOperator = sourceOperator;
    this.sourceOutput = sourceOutput;
    this.target = target;
    this.targetOperator = targetOperator;
    this.targetPort = targetPort;
    this.kind = kind;
    this.keyExtractor = keyExtractor;
  }

  public int id() {
    return id;
  }

  public Vertex source() {
    return source;
  }

  public int sourceOperator() {
    return sourceOperator;
  }

  public int sourceOutput() {
    return sourceOutput;
  }

  public Vertex target() {
    return target;
  }

  public int targetOperator() {
    return targetOperator;
  }

  public int targetPort() {
    return targetPort;
  }

  public EdgeKind kind() {
    return kind;
  }

  public KeyExtractor keyExtractor() {
    return keyExtractor;
  }

  /**
   * Whether sender instance {@code senderInstance} sends to receiver instance {@code
   * receiverInstance} over this edge: a forward edge connects equal indexes only, every other kind
   * connects all pairs.
   */
  public boolean connects(int senderInstance, int receiverInstance) {
    return kind != EdgeKind.FORWARD || senderInstance == receiverInstance;
  }

  @Override
  public String toString() {
    return source.name() + " -" + kind + "-> " + target.name();
  }
}
