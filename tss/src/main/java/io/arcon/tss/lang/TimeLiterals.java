package io.arcon.tss.lang;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves the time literals of {@code AT}, {@code UNTIL} and {@code VERSION} to UTC instants,
 * once, when the statement is parsed (which is when a TSS is created).
 *
 * <p>Accepted forms:
 *
 * <ul>
 *   <li>Local date-time {@code yyyy-MM-dd HH:mm[:ss[.fraction]]} (a {@code T} may replace the
 *       space; the fraction has 1 to 9 digits). It is read in the statement's {@code TIME ZONE}, or
 *       in UTC when there is none.
 *   <li>ISO-8601 with an offset, {@code yyyy-MM-ddTHH:mm[:ss[.fraction]]Z} or {@code ...+01:00} (a
 *       space may replace the {@code T}). The offset fixes the instant; {@code TIME ZONE} does not
 *       apply to it.
 * </ul>
 *
 * <p>Daylight-saving transitions follow {@link ZonedDateTime#ofLocal} with no preferred offset:
 *
 * <ul>
 *   <li>A local time in a <b>gap</b> (it never happened, e.g. {@code 2026-03-29 02:30} in {@code
 *       Europe/Stockholm}) is shifted forward by the length of the gap ({@code 03:30+02:00}).
 *   <li>A local time in an <b>overlap</b> (it happened twice, e.g. {@code 2026-10-25 02:30} in
 *       {@code Europe/Stockholm}) takes the <b>earlier</b> offset, i.e. the first occurrence
 *       ({@code 02:30+02:00}).
 * </ul>
 *
 * <p>Time zones are IANA region ids as in the tz database ({@code Europe/Stockholm}, {@code UTC},
 * {@code Etc/GMT+1}), spelled with their exact case.
 */
public final class TimeLiterals {
  /** How the accepted forms are described in error messages. */
  public static final String ACCEPTED_FORMS =
      "'yyyy-MM-dd HH:mm[:ss[.SSS]]' or ISO-8601 with offset such as '2026-12-02T13:00:00Z'";

  private static final Pattern LITERAL =
      Pattern.compile(
          "(\\d{4})-(\\d{2})-(\\d{2})[ T](\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?"
              + "(Z|[+-]\\d{2}:\\d{2})?");

  private TimeLiterals() {}

  /**
   * Resolves a time literal (without its quotes) to an instant.
   *
   * @param zone the zone for literals without offset; UTC when null
   * @throws DateTimeException with a readable reason when the literal is not an accepted form or
   *     not a valid date-time
   */
  public static Instant resolve(String literal, ZoneId zone) {
    Matcher m = LITERAL.matcher(literal);
    if (!m.matches()) {
      throw new DateTimeException("not a recognised time");
    }
    int nanos = 0;
    if (m.group(7) != null) {
      // Right-pad the fraction so that ".5" means 500 ms.
      nanos = Integer.parseInt((m.group(7) + "00000000").substring(0, 9));
    }
    LocalDateTime local =
        LocalDateTime.of(
            Integer.parseInt(m.group(1)),
            Integer.parseInt(m.group(2)),
            Integer.parseInt(m.group(3)),
            Integer.parseInt(m.group(4)),
            Integer.parseInt(m.group(5)),
            m.group(6) == null ? 0 : Integer.parseInt(m.group(6)),
            nanos);
    if (m.group(8) != null) {
      return local.toInstant(ZoneOffset.of(m.group(8)));
    }
    return ZonedDateTime.ofLocal(local, zone == null ? ZoneOffset.UTC : zone, null).toInstant();
  }

  /**
   * Looks up an IANA zone id exactly as written.
   *
   * @return the zone, or empty when the tz database has no such id
   */
  public static Optional<ZoneId> zone(String id) {
    if (!ZoneId.getAvailableZoneIds().contains(id)) {
      return Optional.empty();
    }
    return Optional.of(ZoneId.of(id));
  }

  /** The zone id that equals {@code id} ignoring case, to suggest a correction. */
  static Optional<String> suggestZone(String id) {
    return ZoneId.getAvailableZoneIds().stream().filter(z -> z.equalsIgnoreCase(id)).findFirst();
  }
}
