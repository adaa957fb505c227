"use strict";
// What both pipelines share: the command line, the choice of runner, the file sink and the
// fixtures' parsers. The Java test (io.arcon.portability.typescript.TypeScriptSdkTest) reads the
// same fixtures with the same rules, so a change here needs the same change there.

const fs = require("fs");
const path = require("path");
const beam = require("apache-beam");
const { createRunner } = require("apache-beam/runners/runner");
const { PortableRunner } = require("apache-beam/runners/portable_runner/runner");
const { PrepareJobRequest } = require("apache-beam/proto/beam_job_api");
const { requireForSerialization } = require("apache-beam/serialization");

const FIXTURES = path.join(__dirname, "..", "fixtures");
const OPTIONS = ["runner", "job_endpoint", "output", "input", "dump_to", "window_seconds"];

const USAGE = `Options (each as --name=value):
  --runner=portable   submit to a Beam job server (default); needs --job_endpoint=HOST:PORT;
                      the SDK serves its workers itself (environment LOOPBACK)
  --runner=direct     run in this process on the SDK's own DirectRunner (no job server)
  --runner=dump       write the PrepareJobRequest the portable runner would send to --dump_to=FILE
                      (JSON) and stop before any job server is contacted
  --output=FILE       where the results go, one line per result (replaced if it exists)
  --input=FILE        the input fixture (default: fixtures/ beside this script)
  --window_seconds=N  windowed_sum.js only: the size of its fixed windows (default 10)`;

class UsageError extends Error {}

/** Parses --name=value arguments; anything else is a usage error. */
function parseArgs(argv, defaults) {
  const args = { runner: "portable", ...defaults };
  for (const arg of argv) {
    const match = /^--([a-z_]+)=(.*)$/.exec(arg);
    if (!match) {
      throw new UsageError(`Unknown argument '${arg}': arguments are --name=value.`);
    }
    if (!OPTIONS.includes(match[1])) {
      throw new UsageError(`Unknown option --${match[1]}.`);
    }
    args[match[1]] = match[2];
  }
  if (!["portable", "direct", "dump"].includes(args.runner)) {
    throw new UsageError(`Unknown --runner=${args.runner}: use portable, direct or dump.`);
  }
  if (args.runner === "portable" && !args.job_endpoint) {
    throw new UsageError("--runner=portable needs --job_endpoint=HOST:PORT of the job server.");
  }
  if (args.runner === "dump" && !args.dump_to) {
    throw new UsageError("--runner=dump needs --dump_to=FILE for the PrepareJobRequest.");
  }
  if (args.runner === "dump" && !args.output) {
    // Nothing runs; the path only shows up inside the serialized sink function.
    args.output = "/dump-only/output.tsv";
  } else if (!args.output) {
    throw new UsageError("--output=FILE is missing: the pipeline writes its results there.");
  }
  args.output = path.resolve(args.output);
  return args;
}

/** Thrown by the dump runner once the request is written; main() treats it as success. */
class DumpWritten extends Error {}

/**
 * The SDK's PortableRunner with its job service client replaced by one that writes the
 * PrepareJobRequest to a file and stops. The request is the one the real runner builds (the
 * LOOPBACK environment swapped in, the options struct), so the dump shows exactly what a job
 * server receives. getClient() is a private method of apache-beam 2.49.0, pinned in package.json.
 */
class PrepareRequestDumper extends PortableRunner {
  constructor(options, dumpTo) {
    super(options);
    this.dumpTo = dumpTo;
  }

  async getClient() {
    const dumpTo = this.dumpTo;
    return {
      prepare(request) {
        const json = PrepareJobRequest.toJson(request);
        fs.writeFileSync(dumpTo, JSON.stringify(json, null, 2) + "\n");
        throw new DumpWritten(dumpTo);
      },
    };
  }
}

function runnerFor(args, jobName) {
  const portableOptions = { jobName, environmentType: "LOOPBACK" };
  switch (args.runner) {
    case "direct":
      return createRunner({ runner: "direct" });
    case "dump":
      return new PrepareRequestDumper(
        { ...portableOptions, jobEndpoint: "dump-only:0" },
        args.dump_to,
      );
    default:
      return new PortableRunner({ ...portableOptions, jobEndpoint: args.job_endpoint });
  }
}

/**
 * Appends one line to the file named by the context. The pipeline's functions are serialized
 * (serialize-closures) and run in the SDK's worker; __closure tells the serializer which outer
 * names the function uses, as the SDK's TypeScript compiler plugin would, and fs travels as a
 * registered built-in. With LOOPBACK and with the direct runner the worker is this process, so
 * the file is on this machine.
 */
function appendLine(line, context) {
  fs.appendFileSync(context.path, line + "\n");
}
appendLine.__closure = () => ({ fs });
requireForSerialization("fs", fs);

/** Writes each element (a string) of pcoll as a line of file. */
function writeLines(pcoll, file) {
  return pcoll.map(appendLine, { path: file });
}

/** The option name of args as a positive integer, else a usage error. */
function positiveInteger(args, name) {
  if (!/^[1-9]\d*$/.test(args[name])) {
    throw new UsageError(`--${name}=${args[name]} is not a positive integer.`);
  }
  return Number(args[name]);
}

/** The lines of the words fixture. */
function readWordLines(file) {
  return fs.readFileSync(file, "utf8").split("\n");
}

/** Lower-cases a line and splits it at every run of characters outside a-z; no empty words. */
function wordsOf(line) {
  return line
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word.length > 0);
}

/** The events fixture: lines key,value,timestampMillis; blank lines and # comments skipped. */
function readEvents(file) {
  const events = [];
  fs.readFileSync(file, "utf8")
    .split("\n")
    .forEach((raw, index) => {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) {
        return;
      }
      const fields = line.split(",");
      if (fields.length !== 3 || !/^-?\d+$/.test(fields[1]) || !/^-?\d+$/.test(fields[2])) {
        throw new UsageError(
          `${file}:${index + 1}: '${line}' is not key,integer value,integer timestamp in ms`,
        );
      }
      events.push({ key: fields[0], value: Number(fields[1]), timestampMillis: Number(fields[2]) });
    });
  return events;
}

/**
 * Runs main(args), then exits: 0 when the pipeline finished in state DONE (or the dump was
 * written), 2 for a usage error, 1 for any other failure. The explicit exit also ends the
 * LOOPBACK worker pool's gRPC server, which would keep node alive.
 */
function runMain(main, defaults) {
  let args;
  try {
    args = parseArgs(process.argv.slice(2), defaults);
  } catch (e) {
    console.error(e.message + "\n" + USAGE);
    process.exit(2);
  }
  if (args.runner !== "dump") {
    fs.rmSync(args.output, { force: true });
  }
  main(args)
    .then(() => {
      console.log(`pipeline finished: ${args.output}`);
      process.exit(0);
    })
    .catch((e) => {
      if (e instanceof DumpWritten) {
        console.log(`PrepareJobRequest written to ${e.message}`);
        process.exit(0);
      }
      if (e instanceof UsageError) {
        console.error(e.message + "\n" + USAGE);
        process.exit(2);
      }
      console.error("pipeline failed:", e);
      process.exit(1);
    });
}

module.exports = {
  FIXTURES,
  runnerFor,
  writeLines,
  readWordLines,
  wordsOf,
  readEvents,
  runMain,
  positiveInteger,
};
