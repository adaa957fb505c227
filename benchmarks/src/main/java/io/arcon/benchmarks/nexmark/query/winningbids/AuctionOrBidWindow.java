package io.arcon.benchmarks.nexmark.query.winningbids;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Instant;

/**
 * A window of the WinningBids step: an auction's window spans the time it is open; a bid's window
 * starts at the bid and is as long as the longest auction. Both name the auction, so {@link
 * AuctionOrBidWindowFn} can merge a bid into the window of the auction it was made on.
 */
public final class AuctionOrBidWindow extends IntervalWindow {
  private final long auction;
  private final boolean isAuctionWindow;

  AuctionOrBidWindow(Instant start, Instant end, long auction, boolean isAuctionWindow) {
    super(start, end);
    this.auction = auction;
    this.isAuctionWindow = isAuctionWindow;
  }

  public long auction() {
    return auction;
  }

  public boolean isAuctionWindow() {
    return isAuctionWindow;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AuctionOrBidWindow w
        && super.equals(w)
        && auction == w.auction
        && isAuctionWindow == w.isAuctionWindow;
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), auction, isAuctionWindow);
  }

  @Override
  public String toString() {
    return (isAuctionWindow ? "AuctionWindow" : "BidWindow")
        + "{auction="
        + auction
        + ", "
        + super.toString()
        + "}";
  }

  /** Its coder: the interval, then the auction id and the kind. */
  public static final class Coder extends CustomCoder<AuctionOrBidWindow> {
    private static final Coder INSTANCE = new Coder();
    private static final org.apache.beam.sdk.coders.Coder<IntervalWindow> INTERVAL =
        IntervalWindow.getCoder();

    public static Coder of() {
      return INSTANCE;
    }

    @Override
    public void encode(AuctionOrBidWindow w, OutputStream out) throws IOException {
      INTERVAL.encode(w, out);
      VarLongCoder.of().encode(w.auction, out);
      BooleanCoder.of().encode(w.isAuctionWindow, out);
    }

    @Override
    public AuctionOrBidWindow decode(InputStream in) throws IOException {
      IntervalWindow interval = INTERVAL.decode(in);
      return new AuctionOrBidWindow(
          interval.start(),
          interval.end(),
          VarLongCoder.of().decode(in),
          BooleanCoder.of().decode(in));
    }

    @Override
    public void verifyDeterministic() {}

    @Override
    public boolean consistentWithEquals() {
      return true;
    }
  }
}
