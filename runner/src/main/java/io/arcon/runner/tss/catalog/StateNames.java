package io.arcon.runner.tss.catalog;

import io.arcon.tss.model.Names;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The canonical names of an app's states (DESIGN §6 "Names"): the {@code @StateId} when no other
 * state of the app has that id, else {@code <transform>.<stateId>} for every state with that id.
 *
 * <p>Both parts are made identifiers with {@link Names#sanitize}. {@code <transform>} is the
 * transform's user-given name: the last segment of its full name, skipping the {@code
 * ParMultiDo(...)} segment Beam adds when it expands a {@code ParDo.of(fn)} (the translator sees
 * {@code Count clicks/ParMultiDo(CountFn)} for {@code apply("Count clicks", ParDo.of(fn))}, and the
 * user named it {@code Count clicks}). When two clashing states' transforms still share that
 * segment, those states use the whole full name (without that expansion segment), sanitized.
 */
final class StateNames {
  /**
   * The segment Beam's {@code ParDo.SingleOutput} adds for the {@code ParDo.MultiOutput} it
   * applies.
   */
  private static final Pattern BEAM_PARDO_EXPANSION = Pattern.compile("ParMultiDo\\(.*\\)");

  private StateNames() {}

  /** A declared state: the transform's full name and the {@code @StateId}. */
  record Declared(String transformFullName, String stateId) {}

  /**
   * The name of each declared state, in the order given.
   *
   * @throws IllegalArgumentException naming the states when two of them cannot be told apart
   */
  static List<String> assign(List<Declared> states) {
    Map<String, List<Integer>> byId = new LinkedHashMap<>();
    for (int i = 0; i < states.size(); i++) {
      byId.computeIfAbsent(Names.sanitize(states.get(i).stateId()), k -> new ArrayList<>()).add(i);
    }
    String[] names = new String[states.size()];
    for (Map.Entry<String, List<Integer>> group : byId.entrySet()) {
      String id = group.getKey();
      List<Integer> members = group.getValue();
      if (members.size() == 1) {
        names[members.get(0)] = id;
        continue;
      }
      Map<String, Integer> segmentUses = new HashMap<>();
      for (int i : members) {
        segmentUses.merge(userSegment(states.get(i).transformFullName()), 1, Integer::sum);
      }
      for (int i : members) {
        String fullName = states.get(i).transformFullName();
        String segment = userSegment(fullName);
        String transform = segmentUses.get(segment) == 1 ? segment : userPath(fullName);
        names[i] = transform + "." + id;
      }
    }
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      Integer other = seen.putIfAbsent(names[i], i);
      if (other != null) {
        throw new IllegalArgumentException(
            "two states would both be named '"
                + names[i]
                + "': "
                + describe(states.get(other))
                + " and "
                + describe(states.get(i))
                + ". TSS names states by @StateId and transform name with every character"
                + " other than letters, digits and '_' replaced by '_'; rename one of the state"
                + " ids or give the transforms names that differ in letters or digits");
      }
    }
    return List.of(names);
  }

  /** The transform's user-given name, sanitized. */
  static String userSegment(String transformFullName) {
    List<String> segments = userSegments(transformFullName);
    return Names.sanitize(segments.get(segments.size() - 1));
  }

  /** The transform's full name without Beam's ParDo expansion segment, sanitized. */
  static String userPath(String transformFullName) {
    return Names.sanitize(String.join("/", userSegments(transformFullName)));
  }

  private static List<String> userSegments(String transformFullName) {
    List<String> segments = List.of(transformFullName.split("/", -1));
    int last = segments.size() - 1;
    if (last > 0 && BEAM_PARDO_EXPANSION.matcher(segments.get(last)).matches()) {
      return segments.subList(0, last);
    }
    return segments;
  }

  private static String describe(Declared d) {
    return "@StateId '" + d.stateId() + "' of transform '" + d.transformFullName() + "'";
  }
}
