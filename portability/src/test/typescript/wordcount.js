"use strict";
// Word count with the Beam TypeScript SDK: the lines of fixtures/words.txt (or --input) become a
// PCollection (beam.create), are split into lower-case words and counted per word
// (countPerElement: a GroupByKey with a combiner), and counted in the user counter "words"; each
// result is written as the line "word<TAB>count" to --output. See lib/common.js for the runners and the other options.
//
//   node wordcount.js --job_endpoint=localhost:8099 --output=/tmp/counts.tsv
//   node wordcount.js --runner=direct --output=/tmp/counts.tsv

const path = require("path");
const beam = require("apache-beam");
const common = require("./lib/common");

// wordsOf uses no outer names, so the serializer sends its source along.
const wordsOf = common.wordsOf;
// Every word also counts in the user counter "words", which the job server reports in
// GetJobMetrics (TypeScriptSdkTest checks it).
function splitWords(line, context) {
  const words = wordsOf(line);
  context.words.increment(words.length);
  return words;
}
splitWords.__closure = () => ({ wordsOf });

function formatCount(wordCount) {
  return wordCount.element + "\t" + wordCount.count;
}

async function main(args) {
  const lines = common.readWordLines(args.input);
  await common.runnerFor(args, "typescript-wordcount").run((root) => {
    const counts = root
      .apply(beam.create(lines))
      .flatMap(splitWords, { words: beam.counter("words") })
      .apply(beam.countPerElement())
      .map(formatCount);
    common.writeLines(counts, args.output);
  });
}

common.runMain(main, { input: path.join(common.FIXTURES, "words.txt") });
