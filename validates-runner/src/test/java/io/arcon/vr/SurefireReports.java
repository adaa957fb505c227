package io.arcon.vr;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/** Reads Surefire's {@code TEST-*.xml} files into one result per executed test. */
final class SurefireReports {

  enum Status {
    PASSED,
    FAILED,
    ERROR,
    SKIPPED
  }

  /**
   * One {@code <testcase>}.
   *
   * @param name the method name as reported, e.g. {@code testFoo} or {@code testFoo[2]}
   * @param message the first line of the failure message (with the exception type), or empty
   */
  record TestResult(String className, String name, Status status, String message, double seconds) {}

  /** All results, plus the summed suite time in seconds. */
  record Reports(List<TestResult> results, double seconds) {}

  private SurefireReports() {}

  static Reports read(Path dir) throws IOException {
    List<TestResult> results = new ArrayList<>();
    double seconds = 0;
    if (!Files.isDirectory(dir)) {
      return new Reports(results, 0);
    }
    DocumentBuilder parser = newParser();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "TEST-*.xml")) {
      for (Path file : files) {
        Document document;
        try {
          document = parser.parse(file.toFile());
        } catch (SAXException e) {
          throw new IOException(
              "Surefire report " + file + " is not valid XML (was the fork killed?): " + e, e);
        }
        Element suite = document.getDocumentElement();
        seconds += parseSeconds(suite.getAttribute("time"));
        NodeList cases = suite.getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
          results.add(toResult((Element) cases.item(i)));
        }
      }
    }
    return new Reports(results, seconds);
  }

  /** Message prefix of a test that passed only when run again. */
  static final String FLAKY = "flaky, passed on rerun after: ";

  private static TestResult toResult(Element testCase) {
    Status status = Status.PASSED;
    String message = "";
    for (Node child = testCase.getFirstChild(); child != null; child = child.getNextSibling()) {
      if (!(child instanceof Element element)) {
        continue;
      }
      switch (element.getTagName()) {
        case "failure" -> {
          status = Status.FAILED;
          message = describe(element);
        }
        case "error" -> {
          status = Status.ERROR;
          message = describe(element);
        }
        case "flakyFailure", "flakyError" -> {
          // Failed, then passed when Surefire ran it again (rerunFailingTestsCount).
          if (status == Status.PASSED && !message.startsWith(FLAKY)) {
            message = FLAKY + describe(element);
          }
        }
        case "skipped" -> {
          if (status == Status.PASSED) {
            status = Status.SKIPPED;
            message = element.getAttribute("message");
          }
        }
        default -> {}
      }
    }
    return new TestResult(
        testCase.getAttribute("classname"),
        testCase.getAttribute("name"),
        status,
        message,
        parseSeconds(testCase.getAttribute("time")));
  }

  /** {@code type: first line of message}, or the first line of the stack trace. */
  private static String describe(Element problem) {
    String type = problem.getAttribute("type");
    String message = firstLine(problem.getAttribute("message"));
    if (message.isEmpty()) {
      message = firstLine(problem.getTextContent());
      return message.isEmpty() ? type : message;
    }
    return type.isEmpty() ? message : type + ": " + message;
  }

  static String firstLine(String text) {
    if (text == null) {
      return "";
    }
    String stripped = text.strip();
    int newline = stripped.indexOf('\n');
    return (newline < 0 ? stripped : stripped.substring(0, newline)).strip();
  }

  private static double parseSeconds(String value) {
    if (value == null || value.isBlank()) {
      return 0;
    }
    try {
      return Double.parseDouble(value.replace(",", ""));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static DocumentBuilder newParser() {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return factory.newDocumentBuilder();
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("The JDK's XML parser cannot be configured", e);
    }
  }
}
