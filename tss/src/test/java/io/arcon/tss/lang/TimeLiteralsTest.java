package io.arcon.tss.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class TimeLiteralsTest {
  private static final ZoneId STOCKHOLM = ZoneId.of("Europe/Stockholm");

  private static Instant at(String literal, String zone) {
    String statement =
        "CREATE TSS t AS EXTRACT a.s AT '"
            + literal
            + "'"
            + (zone == null ? "" : " TIME ZONE '" + zone + "'");
    return ((CreateTss) TssParser.parseOne(statement)).at();
  }

  @Test
  void localFormsAreUtcWithoutZone() {
    assertEquals(Instant.parse("2026-12-02T13:00:00Z"), at("2026-12-02 13:00", null));
    assertEquals(Instant.parse("2026-12-02T13:00:07Z"), at("2026-12-02 13:00:07", null));
    assertEquals(Instant.parse("2026-12-02T13:00:07.250Z"), at("2026-12-02 13:00:07.25", null));
    assertEquals(
        Instant.parse("2026-12-02T13:00:07.123456789Z"), at("2026-12-02T13:00:07.123456789", null));
  }

  @Test
  void offsetsFixTheInstantEvenWithATimeZone() {
    assertEquals(Instant.parse("2026-12-02T13:00:00Z"), at("2026-12-02T13:00:00Z", null));
    assertEquals(Instant.parse("2026-12-02T12:00:00Z"), at("2026-12-02T13:00:00+01:00", null));
    assertEquals(
        Instant.parse("2026-12-02T18:30:00Z"), at("2026-12-02 13:30-05:00", "Europe/Stockholm"));
  }

  @Test
  void zoneAppliesToLocalTimes() {
    // Winter: CET = UTC+1; summer: CEST = UTC+2.
    assertEquals(Instant.parse("2026-12-02T12:00:00Z"), at("2026-12-02 13:00", "Europe/Stockholm"));
    assertEquals(Instant.parse("2026-07-01T11:00:00Z"), at("2026-07-01 13:00", "Europe/Stockholm"));
    assertEquals(Instant.parse("2026-07-01T13:00:00Z"), at("2026-07-01 13:00", "UTC"));
  }

  @Test
  void dstGapShiftsForwardByTheGapLength() {
    // 2026-03-29 02:00 CET jumps to 03:00 CEST: 02:30 never happens and becomes 03:30 CEST.
    Instant resolved = TimeLiterals.resolve("2026-03-29 02:30", STOCKHOLM);
    assertEquals(Instant.parse("2026-03-29T01:30:00Z"), resolved);
    assertEquals("2026-03-29T03:30+02:00[Europe/Stockholm]", resolved.atZone(STOCKHOLM).toString());
    assertEquals(resolved, at("2026-03-29 02:30", "Europe/Stockholm"));
  }

  @Test
  void dstOverlapTakesTheEarlierOffset() {
    // 2026-10-25 03:00 CEST falls back to 02:00 CET: 02:30 happens twice; the first (+02:00) wins.
    Instant resolved = TimeLiterals.resolve("2026-10-25 02:30", STOCKHOLM);
    assertEquals(Instant.parse("2026-10-25T00:30:00Z"), resolved);
    assertEquals(resolved, at("2026-10-25 02:30", "Europe/Stockholm"));
    // An explicit offset picks the second occurrence.
    assertEquals(
        Instant.parse("2026-10-25T01:30:00Z"),
        TimeLiterals.resolve("2026-10-25 02:30+01:00", null));
  }

  @Test
  void untilUsesTheSameZone() {
    CreateTss create =
        (CreateTss)
            TssParser.parseOne(
                "CREATE TSS t AS EXTRACT a.s AT '2026-10-25 01:00' TIME ZONE 'Europe/Stockholm'"
                    + " FOR EACH 1 HOUR UNTIL '2026-10-25 04:00'");
    assertEquals(Instant.parse("2026-10-24T23:00:00Z"), create.at());
    assertEquals(Instant.parse("2026-10-25T03:00:00Z"), create.until());
  }

  @Test
  void rejectsOtherForms() {
    for (String bad :
        new String[] {
          "2026-12-02",
          "13:00",
          "2026-12-02 13",
          "2026/12/02 13:00",
          "2026-12-02  13:00",
          "2026-12-02 13:00:00.",
          "2026-12-02 13:00:00.1234567890",
          "2026-12-02 13:00 Z"
        }) {
      assertThrows(DateTimeException.class, () -> TimeLiterals.resolve(bad, null), bad);
    }
  }

  @Test
  void zonesAreExactIanaIds() {
    assertEquals(STOCKHOLM, TimeLiterals.zone("Europe/Stockholm").orElseThrow());
    assertEquals(true, TimeLiterals.zone("EUROPE/STOCKHOLM").isEmpty());
    assertEquals(true, TimeLiterals.zone("+01:00").isEmpty());
  }
}
