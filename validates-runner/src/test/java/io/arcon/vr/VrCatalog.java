package io.arcon.vr;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Finds every ValidatesRunner test method in Beam's test jars, the way JUnit 4 would run them: a
 * concrete, public (possibly nested static) class with public {@code @Test} methods, own or
 * inherited, whose method or class carries a category that is or extends {@code ValidatesRunner}.
 *
 * <p>This is the denominator of the suite ("N of M"), and it decides which classes Surefire loads.
 */
public final class VrCatalog {

  public static final String VALIDATES_RUNNER = "org.apache.beam.sdk.testing.ValidatesRunner";

  /** The result of a scan: the tests, and the classes that could not be loaded to inspect. */
  public record Scan(List<VrTest> tests, List<String> unloadableClasses) {}

  private VrCatalog() {}

  /** Scans the jars; classes are loaded without initialization through {@code loader}. */
  public static Scan scan(List<Path> jars, ClassLoader loader) throws IOException {
    List<VrTest> tests = new ArrayList<>();
    List<String> unloadable = new ArrayList<>();
    for (Path jar : jars) {
      if (!jar.toFile().isFile()) {
        throw new IllegalArgumentException(
            "Test jar "
                + jar
                + " does not exist; run Maven once without -o so it is downloaded, or fix the"
                + " --jars argument.");
      }
      try (JarFile jarFile = new JarFile(jar.toFile())) {
        Enumeration<JarEntry> entries = jarFile.entries();
        while (entries.hasMoreElements()) {
          String entryName = entries.nextElement().getName();
          if (!entryName.endsWith(".class") || entryName.contains("-info")) {
            continue;
          }
          String className =
              entryName.substring(0, entryName.length() - ".class".length()).replace('/', '.');
          Class<?> clazz;
          try {
            clazz = Class.forName(className, false, loader);
          } catch (ClassNotFoundException | LinkageError e) {
            unloadable.add(className + " (" + e + ")");
            continue;
          }
          try {
            addTests(clazz, tests);
          } catch (LinkageError e) {
            // Reflection over methods resolves their signatures; a missing optional dependency
            // makes the class unrunnable for JUnit too, but say so instead of hiding it.
            unloadable.add(className + " (" + e + ")");
          }
        }
      }
    }
    tests.sort(Comparator.comparing(VrTest::className).thenComparing(VrTest::methodName));
    return new Scan(List.copyOf(tests), List.copyOf(unloadable));
  }

  private static void addTests(Class<?> clazz, List<VrTest> tests) {
    if (!isRunnableJUnit4Class(clazz)) {
      return;
    }
    Set<String> classCategories = categoryClosure(clazz.getAnnotation(Category.class));
    List<Method> methods = new ArrayList<>();
    for (Method method : clazz.getMethods()) {
      if (method.isAnnotationPresent(Test.class)) {
        methods.add(method);
      }
    }
    for (Method method : methods) {
      Set<String> categories = new LinkedHashSet<>(classCategories);
      categories.addAll(categoryClosure(method.getAnnotation(Category.class)));
      if (categories.contains(VALIDATES_RUNNER)) {
        tests.add(new VrTest(clazz.getName(), method.getName(), List.copyOf(categories)));
      }
    }
  }

  private static boolean isRunnableJUnit4Class(Class<?> clazz) {
    int modifiers = clazz.getModifiers();
    if (clazz.isInterface()
        || clazz.isAnnotation()
        || clazz.isEnum()
        || Modifier.isAbstract(modifiers)
        || !Modifier.isPublic(modifiers)
        || clazz.isAnonymousClass()
        || clazz.isLocalClass()) {
      return false;
    }
    // JUnit 4 cannot instantiate an inner (non-static member) class.
    return clazz.getEnclosingClass() == null || Modifier.isStatic(modifiers);
  }

  /** The categories named by the annotation and all their super-types, as binary names. */
  private static Set<String> categoryClosure(Category category) {
    Set<String> names = new LinkedHashSet<>();
    if (category == null) {
      return names;
    }
    for (Class<?> value : category.value()) {
      addWithSuperTypes(value, names);
    }
    return names;
  }

  private static void addWithSuperTypes(Class<?> type, Set<String> names) {
    if (type == null || type == Object.class || !names.add(type.getName())) {
      return;
    }
    addWithSuperTypes(type.getSuperclass(), names);
    for (Class<?> superInterface : type.getInterfaces()) {
      addWithSuperTypes(superInterface, names);
    }
  }
}
