package io.arcon.benchmarks.nexmark.query;

import java.io.Serializable;
import java.util.Set;

/**
 * The queries' parameters, in milliseconds of event time unless named otherwise.
 *
 * @param windowSizeMillis size of the fixed windows (Q4, Q7, Q8) and sliding windows (Q5)
 * @param windowPeriodMillis period of Q5's sliding windows
 * @param sessionGapMillis gap that ends a bidder's session (Q11)
 * @param processingWindowMillis length of Q12's windows, in processing time
 * @param maxAuctionDurationMillis the longest an auction stays open (from the generator): how long
 *     a bid waits for its auction in the WinningBids step
 */
public record QueryConfig(
    long windowSizeMillis,
    long windowPeriodMillis,
    long sessionGapMillis,
    long processingWindowMillis,
    long maxAuctionDurationMillis)
    implements Serializable {

  /** Q1: cents of a dollar bid in euros, as NEXMark's fixed rate 0.89. */
  public static final long EURO_CENTS_PER_100_DOLLAR_CENTS = 89;

  /** Q2: bids on auctions whose id is a multiple of this are selected. */
  public static final long AUCTION_SKIP = 123;

  /** Q3: sellers from these states, ... */
  public static final Set<String> LOCAL_STATES = Set.of("OR", "ID", "CA");

  /** Q3: ... and their auctions in this category. */
  public static final long LOCAL_CATEGORY = 10;

  /** Q6: how many of a seller's most recent winning bids are averaged. */
  public static final int SELLER_HISTORY = 10;

  public QueryConfig {
    if (windowSizeMillis <= 0
        || windowPeriodMillis <= 0
        || sessionGapMillis < 2
        || processingWindowMillis <= 0
        || maxAuctionDurationMillis <= 0) {
      throw new IllegalArgumentException(
          "Window sizes, period and auction duration must be positive and the session gap at least"
              + " 2 ms (Flink's sessions are 1 ms shorter, see Query11), got "
              + this);
    }
    if (windowSizeMillis % windowPeriodMillis != 0) {
      throw new IllegalArgumentException(
          "The window size must be a multiple of the window period (sliding windows of Q5), got "
              + windowSizeMillis
              + " ms and "
              + windowPeriodMillis
              + " ms");
    }
  }
}
