package io.arcon.tss.model;

import java.time.Instant;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Operations on the Java values of {@link FieldType}s: checking a value against its type, and
 * structural equality and hashing (byte arrays by content, lists and rows element-wise, maps as
 * maps), which a diff needs because {@code byte[]} has identity equality.
 */
public final class Values {
  private Values() {}

  /**
   * Checks that {@code value} is a valid Java value of {@code type}.
   *
   * @param where a description of the value's position for the error message, e.g. {@code
   *     "value.items[3]"}
   * @throws IllegalArgumentException naming the position, the expected type and the Java class
   *     found
   */
  public static void check(FieldType type, Object value, boolean nullable, String where) {
    if (value == null) {
      if (!nullable) {
        throw new IllegalArgumentException(
            where + " is null but its type " + type + " is NOT NULL");
      }
      return;
    }
    if (type instanceof PrimitiveType p) {
      if (!p.javaClass().isInstance(value)) {
        throw mismatch(where, type, value, p.javaClass().getSimpleName());
      }
    } else if (type instanceof OpaqueType) {
      if (!(value instanceof OpaqueValue)) {
        throw mismatch(where, type, value, "OpaqueValue");
      }
    } else if (type instanceof ListType l) {
      if (!(value instanceof List<?> list)) {
        throw mismatch(where, type, value, "java.util.List");
      }
      int i = 0;
      for (Object e : list) {
        check(l.element(), e, true, where + "[" + i++ + "]");
      }
    } else if (type instanceof MapType m) {
      if (!(value instanceof Map<?, ?> map)) {
        throw mismatch(where, type, value, "java.util.Map");
      }
      for (Map.Entry<?, ?> e : map.entrySet()) {
        check(m.key(), e.getKey(), false, where + " map key");
        check(m.value(), e.getValue(), true, where + "[" + e.getKey() + "]");
      }
    } else {
      RowType r = (RowType) type;
      if (!(value instanceof List<?> list)) {
        throw mismatch(where, type, value, "java.util.List of field values");
      }
      if (list.size() != r.fields().size()) {
        throw new IllegalArgumentException(
            where
                + " has "
                + list.size()
                + " field values but its type "
                + type
                + " has "
                + r.fields().size()
                + " fields; give one value per field, in field order");
      }
      for (int i = 0; i < list.size(); i++) {
        Field f = r.fields().get(i);
        check(f.type(), list.get(i), f.nullable(), where + "." + f.name());
      }
    }
  }

  private static IllegalArgumentException mismatch(
      String where, FieldType type, Object value, String expectedClass) {
    return new IllegalArgumentException(
        where
            + " has type "
            + type
            + " so its Java value must be a "
            + expectedClass
            + ", but it is a "
            + value.getClass().getName());
  }

  /** Structural equality of two values of the same type. */
  public static boolean deepEquals(Object a, Object b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.equals(x, y);
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      Iterator<?> i = x.iterator();
      Iterator<?> j = y.iterator();
      while (i.hasNext()) {
        if (!deepEquals(i.next(), j.next())) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      // Keys may be byte[] (identity-hashed), so match entries structurally, not with get().
      outer:
      for (Map.Entry<?, ?> ex : x.entrySet()) {
        for (Map.Entry<?, ?> ey : y.entrySet()) {
          if (deepEquals(ex.getKey(), ey.getKey())) {
            if (!deepEquals(ex.getValue(), ey.getValue())) {
              return false;
            }
            continue outer;
          }
        }
        return false;
      }
      return true;
    }
    if (a instanceof Instant x && b instanceof Instant y) {
      return x.equals(y);
    }
    return a.equals(b);
  }

  /** A hash code consistent with {@link #deepEquals(Object, Object)}. */
  public static int deepHashCode(Object v) {
    if (v == null) {
      return 0;
    }
    if (v instanceof byte[] bytes) {
      return Arrays.hashCode(bytes);
    }
    if (v instanceof List<?> list) {
      int h = 1;
      for (Object e : list) {
        h = 31 * h + deepHashCode(e);
      }
      return h;
    }
    if (v instanceof Map<?, ?> map) {
      int h = 0; // order-independent, like Map.hashCode
      for (Map.Entry<?, ?> e : map.entrySet()) {
        h += deepHashCode(e.getKey()) ^ deepHashCode(e.getValue());
      }
      return h;
    }
    return Objects.hashCode(v);
  }
}
