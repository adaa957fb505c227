package io.arcon.runner.tss.catalog;

import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.StateKind;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.reflect.DoFnSignature;
import org.apache.beam.sdk.transforms.reflect.DoFnSignatures;

/**
 * The user states of an app: every {@code @StateId} of every stateful DoFn, with its canonical name
 * ({@link StateNames}), kind, key and value types, backend and consistency.
 *
 * <p>Only state declarations are listed. Timers are not state declarations, and the runner's own
 * state (sort buffers, GroupByKey and Combine internals, watermark holds) is not declared by DoFns,
 * so neither can appear here or take a user's name.
 */
public final class UserStateCatalog {
  private final List<UserState> states;
  private final Map<String, UserState> byName;

  private UserStateCatalog(List<UserState> states) {
    this.states = Collections.unmodifiableList(states);
    Map<String, UserState> names = new LinkedHashMap<>();
    for (UserState s : states) {
      names.put(s.name(), s);
    }
    this.byName = Collections.unmodifiableMap(names);
  }

  /**
   * The catalog of the given stateful transforms, states in the order of the transforms and, within
   * a transform, by state id.
   *
   * @throws IllegalArgumentException if a transform is listed twice, a StateSpec has no coder, or
   *     two states cannot be given distinct names
   */
  public static UserStateCatalog build(List<StatefulDoFnInfo> transforms) {
    Set<String> transformNames = new HashSet<>();
    List<Pending> pending = new ArrayList<>();
    for (StatefulDoFnInfo t : transforms) {
      if (!transformNames.add(t.transformFullName())) {
        throw new IllegalArgumentException(
            "transform '" + t.transformFullName() + "' is listed twice; list each transform once");
      }
      KeyMapping key = KeyMapping.of(t.keyCoder());
      DoFnSignature signature = DoFnSignatures.getSignature(t.fn().getClass());
      List<DoFnSignature.StateDeclaration> declarations =
          new ArrayList<>(signature.stateDeclarations().values());
      declarations.sort(Comparator.comparing(DoFnSignature.StateDeclaration::id));
      for (DoFnSignature.StateDeclaration d : declarations) {
        String where = "state '" + d.id() + "' of transform '" + t.transformFullName() + "'";
        StateShape shape = StateShape.of(specOf(t.fn(), d, where), where);
        if (shape.kind() == StateKind.WATERMARK_HOLD) {
          continue; // a hold on the output watermark, not data
        }
        pending.add(new Pending(t, d.id(), StateValueMapping.forShape(shape, where), key));
      }
    }
    List<StateNames.Declared> declared = new ArrayList<>();
    for (Pending p : pending) {
      declared.add(new StateNames.Declared(p.transform().transformFullName(), p.stateId()));
    }
    List<String> names = StateNames.assign(declared);
    List<UserState> states = new ArrayList<>();
    for (int i = 0; i < pending.size(); i++) {
      Pending p = pending.get(i);
      StatefulDoFnInfo t = p.transform();
      states.add(
          new UserState(
              names.get(i),
              t.transformFullName(),
              p.stateId(),
              p.value().kind(),
              t.exact() ? Consistency.EXACT : Consistency.WATERMARK_CUT,
              t.backend(),
              t.keyCoder(),
              p.value(),
              p.key()));
    }
    return new UserStateCatalog(states);
  }

  /** The state with canonical name {@code name}. */
  public Optional<UserState> byName(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** All states. */
  public List<UserState> states() {
    return states;
  }

  /** The states declared by the transform with full name {@code fullName}. */
  public List<UserState> ofTransform(String fullName) {
    return states.stream().filter(s -> s.transformFullName().equals(fullName)).toList();
  }

  private static StateSpec<?> specOf(
      DoFn<?, ?> fn, DoFnSignature.StateDeclaration declaration, String where) {
    Field field = declaration.field();
    Object spec;
    try {
      field.setAccessible(true);
      spec = field.get(fn);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalArgumentException(
          where + ": cannot read its StateSpec field " + field + ": " + e.getMessage(), e);
    }
    if (spec == null) {
      throw new IllegalArgumentException(
          where + ": its @StateId field " + field.getName() + " holds no StateSpec (it is null)");
    }
    return (StateSpec<?>) spec;
  }

  private record Pending(
      StatefulDoFnInfo transform, String stateId, StateValueMapping value, KeyMapping key) {}
}
