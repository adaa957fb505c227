"use strict";
// A windowed keyed sum with the Beam TypeScript SDK: the events of fixtures/events.csv (or
// --input), lines key,value,timestampMillis, get their event time as timestamp
// (assignTimestamps), go into fixed windows of --window_seconds (default 10;
// windowInto(fixedWindows(...))) and are summed per key and window
// (groupBy("key").combining("value", sum)). Each result is written as the line
// "key<TAB>windowStartMillis<TAB>windowEndMillis<TAB>sum" to --output. See lib/common.js for the
// runners and the other options.
//
//   node windowed_sum.js --job_endpoint=localhost:8099 --output=/tmp/sums.tsv
//   node windowed_sum.js --runner=direct --output=/tmp/sums.tsv

const path = require("path");
const Long = require("long");
const beam = require("apache-beam");
const { sum } = require("apache-beam/transforms/combiners");
const common = require("./lib/common");

function eventTime(event) {
  return Long.fromNumber(event.timestampMillis);
}
eventTime.__closure = () => ({ Long });

function formatWindowedSum(keySum, context) {
  const window = context.window.lookup();
  return [keySum.key, window.start.toString(), window.end.toString(), keySum.sum].join("\t");
}

async function main(args) {
  const events = common.readEvents(args.input);
  const windowSeconds = common.positiveInteger(args, "window_seconds");
  await common.runnerFor(args, "typescript-windowed-sum").run((root) => {
    const sums = root
      .apply(beam.create(events))
      .apply(beam.assignTimestamps(eventTime))
      .apply(beam.windowInto(beam.fixedWindows(windowSeconds)))
      .apply(beam.groupBy("key").combining("value", sum, "sum"))
      .map(formatWindowedSum, { window: beam.windowParam() });
    common.writeLines(sums, args.output);
  });
}

common.runMain(main, { input: path.join(common.FIXTURES, "events.csv"), window_seconds: "10" });
