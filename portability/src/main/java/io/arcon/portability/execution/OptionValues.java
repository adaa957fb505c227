package io.arcon.portability.execution;

import io.arcon.runner.ArconPipelineOptions;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.PortablePipelineOptions;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Struct;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Value;
import org.apache.beam.vendor.guava.v32_1_2_jre.com.google.common.base.CaseFormat;

/**
 * Checks the values of the options a client set against the types the runner reads them as.
 *
 * <p>Beam parses an option's JSON value only when its getter is first called, so a bad value (a
 * TypeScript client's {@code checkpointingInterval: "abc"}) would otherwise surface as an internal
 * error somewhere in the job's start. Calling, at submission, the getter of every option the client
 * sent makes that the client's error, naming the option and its value.
 */
final class OptionValues {
  private static final String PREFIX = "beam:option:";
  private static final String SUFFIX = ":v1";

  private OptionValues() {}

  /**
   * @throws IllegalArgumentException naming the first option of {@code sent} whose value does not
   *     parse as the type of its getter
   */
  static void check(Struct sent, PipelineOptions options) {
    Set<Class<? extends PipelineOptions>> interfaces = new LinkedHashSet<>();
    interfaces.add(ArconPipelineOptions.class);
    interfaces.add(PortablePipelineOptions.class);
    interfaces.addAll(PipelineOptionsFactory.getRegisteredOptions());
    for (Map.Entry<String, Value> entry : sent.getFieldsMap().entrySet()) {
      String name = propertyName(entry.getKey());
      if (name == null) {
        continue;
      }
      for (Class<? extends PipelineOptions> type : interfaces) {
        Method getter = getter(type, name);
        if (getter == null) {
          continue;
        }
        try {
          getter.invoke(options.as(type));
        } catch (InvocationTargetException e) {
          Throwable cause = e.getCause() != null ? e.getCause() : e;
          throw new IllegalArgumentException(
              "Pipeline option --"
                  + name
                  + " has the value "
                  + shown(entry.getValue())
                  + ", which is not a valid "
                  + getter.getGenericReturnType().getTypeName()
                  + " ("
                  + innermost(cause)
                  + "). Fix its value in the options the client sends.",
              cause);
        } catch (IllegalAccessException | RuntimeException e) {
          // An interface the runner cannot view these options as (e.g. conflicting getter types
          // of unrelated registered interfaces) is not one it reads this option through.
        }
        break;
      }
    }
  }

  /**
   * The option's property name as Beam's translation derives it from the key sent, or null for a
   * key not of the form {@code beam:option:<name>:v1} (Beam's translation reads no option from it).
   */
  static String propertyName(String key) {
    if (key.startsWith(PREFIX) && key.endsWith(SUFFIX) && key.length() > PREFIX.length() + 3) {
      return CaseFormat.LOWER_UNDERSCORE.to(
          CaseFormat.LOWER_CAMEL, key.substring(PREFIX.length(), key.length() - SUFFIX.length()));
    }
    return null;
  }

  private static Method getter(Class<?> type, String property) {
    if (property.isEmpty()) {
      return null;
    }
    String capitalized = Character.toUpperCase(property.charAt(0)) + property.substring(1);
    for (String prefix : new String[] {"get", "is"}) {
      try {
        Method m = type.getMethod(prefix + capitalized);
        if (m.getDeclaringClass().isInterface()) {
          return m;
        }
      } catch (NoSuchMethodException e) {
        // try the next prefix
      }
    }
    return null;
  }

  private static String shown(Value value) {
    if (value.hasStringValue()) {
      return "\"" + value.getStringValue() + "\"";
    }
    try {
      return org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.util.JsonFormat.printer()
          .omittingInsignificantWhitespace()
          .print(value);
    } catch (Exception e) {
      return value.toString().trim();
    }
  }

  /** The parser's own message, without Jackson's source location dump. */
  private static String innermost(Throwable t) {
    Throwable last = t;
    while (last.getCause() != null && last.getCause() != last) {
      last = last.getCause();
    }
    String message =
        last.getMessage() == null ? last.getClass().getSimpleName() : last.getMessage();
    int location = message.indexOf("\n at [Source");
    return (location >= 0 ? message.substring(0, location) : message).trim();
  }
}
