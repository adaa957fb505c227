// Drives the ArconRunner web UI in Debian's chromium (through playwright-core) for
// io.arcon.runner.webui.WebUiBrowserTest, which starts the job and this script:
//
//   node check-web-ui.mjs '<config as JSON>'
//
// config.mode "job": opens config.page (a job page), checks that the graph shows every name of
// config.transforms, waits until the numbers move while the job runs and prints "MOVING ...".
// The test then lets the job finish and writes one line of JSON to stdin: what
// PipelineResult.metrics() reported and the records the chains received. The script waits for
// the page to show the job DONE, compares the numbers it shows, saves a screenshot at
// config.screenshot and prints "OK".
//
// config.mode "tss": opens config.page (a TSS page), checks that the app config.app is listed and
// that TSS config.tss has a version waiting on that app, and saves a screenshot.
//
// Any failure prints "FAIL <why>" (and a screenshot next to config.screenshot) and exits with 1.

import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

const config = JSON.parse(process.argv[2] || '{}');
const CHROMIUM = process.env.ARCON_CHROMIUM || '/usr/bin/chromium';
// Without the background-networking flags chromium keeps dialling Google's hosts, which this
// offline machine refuses; --no-sandbox because CI runs as root.
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const STEP_TIMEOUT_MS = 120_000;

const stdinLines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

function say(line) {
  process.stdout.write(`${line}\n`);
}

class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) {
    throw new CheckFailed(message);
  }
}

/** "12,345" -> 12345; "–" -> null. */
function number(text) {
  const t = text.trim().replace(/,/g, '');
  return t === '–' || t === '' ? null : Number(t);
}

async function waitFor(what, predicate, timeoutMs = STEP_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) {
      return value;
    }
    check(Date.now() < deadline, `timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What the job page shows: state, per chain its transforms and totals, the Beam metrics. */
function readJobPage() {
  const text = (e) => (e ? e.textContent : '');
  const chains = [...document.querySelectorAll('svg.job-graph g.chain')].map((g) => ({
    vertex: g.getAttribute('data-vertex'),
    transforms: [...g.querySelectorAll('text.transform')].map(text),
    live: [...g.querySelectorAll('text.live')].map(text).join(' | '),
  }));
  const vertexRows = [...document.querySelectorAll('#nodes tr.vertex')].map((tr) => ({
    vertex: tr.getAttribute('data-vertex'),
    recordsIn: text(tr.querySelector('td[data-field=recordsIn]')),
    recordsOut: text(tr.querySelector('td[data-field=recordsOut]')),
  }));
  const metricRows = (table, fields) =>
    [...document.querySelectorAll(`#${table} tbody tr[data-step]`)].map((tr) => {
      const row = {
        step: tr.getAttribute('data-step'),
        namespace: tr.getAttribute('data-namespace'),
        name: tr.getAttribute('data-name'),
      };
      for (const f of fields) {
        row[f] = text(tr.querySelector(`td[data-field=${f}]`));
      }
      return row;
    });
  const summary = {};
  for (const item of document.querySelectorAll('#summary div')) {
    summary[text(item.querySelector('dt'))] = text(item.querySelector('dd'));
  }
  return {
    state: text(document.getElementById('job-state')),
    summary,
    chains,
    vertexRows,
    counters: metricRows('counters', ['value']),
    distributions: metricRows('distributions', ['count', 'sum', 'min', 'max']),
    gauges: metricRows('gauges', ['value']),
    status: text(document.getElementById('status')),
  };
}

async function checkJobPage(page) {
  await page.goto(config.page);
  const shown = await waitFor('the graph', async () => {
    const s = await page.evaluate(readJobPage);
    return s.chains.length > 0 && s.vertexRows.length > 0 ? s : null;
  });
  const transforms = shown.chains.flatMap((c) => c.transforms);
  for (const name of config.transforms) {
    check(
      transforms.some((t) => t === name || t.startsWith(`${name}/`)),
      `the graph does not show transform ${name}; it shows ${JSON.stringify(transforms)}`,
    );
  }
  say(`GRAPH ${JSON.stringify(transforms)}`);

  // The numbers move: a later reading differs from the first, in the table and in the graph,
  // while the page still says RUNNING.
  const first = await page.evaluate(readJobPage);
  check(first.state === 'RUNNING', `the job should still run, the page says ${first.state}`);
  const moved = await waitFor('the numbers to move', async () => {
    const now = await page.evaluate(readJobPage);
    check(now.state === 'RUNNING', `the job ended before its numbers were seen moving (${now.state})`);
    const tableMoved = JSON.stringify(now.vertexRows) !== JSON.stringify(first.vertexRows);
    const graphMoved =
      JSON.stringify(now.chains.map((c) => c.live)) !== JSON.stringify(first.chains.map((c) => c.live));
    return tableMoved && graphMoved ? now : null;
  });
  say(`MOVING ${JSON.stringify(first.vertexRows)} -> ${JSON.stringify(moved.vertexRows)}`);

  const line = await stdinLines.next();
  check(!line.done, 'the test sent no expectations');
  const expected = JSON.parse(line.value);

  const done = await waitFor('the page to show the job DONE', async () => {
    const s = await page.evaluate(readJobPage);
    return s.state === 'DONE' ? s : null;
  });
  const problems = [];
  const find = (rows, m) =>
    rows.filter((r) => r.step === m.step && r.namespace === m.namespace && r.name === m.name);
  for (const m of expected.counters) {
    const rows = find(done.counters, m);
    if (rows.length !== 1 || number(rows[0].value) !== m.value) {
      problems.push(`counter ${m.step} ${m.namespace}:${m.name} = ${m.value}, page: ${JSON.stringify(rows)}`);
    }
  }
  for (const m of expected.distributions) {
    const rows = find(done.distributions, m);
    const ok =
      rows.length === 1 &&
      number(rows[0].count) === m.count &&
      number(rows[0].sum) === m.sum &&
      number(rows[0].min) === m.min &&
      number(rows[0].max) === m.max;
    if (!ok) {
      problems.push(`distribution ${m.step} ${m.namespace}:${m.name} = ${JSON.stringify(m)}, page: ${JSON.stringify(rows)}`);
    }
  }
  for (const m of expected.gauges) {
    const rows = find(done.gauges, m);
    if (rows.length !== 1 || number(rows[0].value) !== m.value) {
      problems.push(`gauge ${m.step} ${m.namespace}:${m.name} = ${m.value}, page: ${JSON.stringify(rows)}`);
    }
  }
  if (done.counters.length !== expected.counters.length) {
    problems.push(`${expected.counters.length} counters expected, the page lists ${done.counters.length}`);
  }
  // The test runs with the node instances pinned to their threads, as by default.
  if (!/^\d+ pinned · [\d,]+ node runs taken by another thread · [\d,]+ spare threads started/.test(done.summary['Node threads'] || '')) {
    problems.push(`node threads: ${JSON.stringify(done.summary['Node threads'])}`);
  }
  for (const v of expected.recordsIn) {
    const chain = done.chains.find((c) => c.transforms.some((t) => t === v.transform || t.startsWith(`${v.transform}/`)));
    const row = chain && done.vertexRows.find((r) => r.vertex === chain.vertex);
    if (!row || number(row.recordsIn) !== v.records) {
      problems.push(`records into the chain of ${v.transform} = ${v.records}, page: ${JSON.stringify(row)}`);
    }
  }
  await screenshot(page, config.screenshot);
  check(problems.length === 0, `the page's final figures differ:\n  ${problems.join('\n  ')}`);
  say(`FINAL ${done.counters.length} counters, ${done.distributions.length} distributions, ${done.gauges.length} gauges match`);
}

async function checkTssPage(page) {
  await page.goto(config.page);
  const seen = await waitFor(`app ${config.app} and TSS ${config.tss} waiting on it`, () =>
    page.evaluate(
      ({ app, tss }) => {
        const appRow = document.querySelector(`#apps tr[data-app="${CSS.escape(app)}"]`);
        const article = document.querySelector(`article[data-tss="${CSS.escape(tss)}"]`);
        if (!appRow || !article) {
          return null;
        }
        const waiting = [...article.querySelectorAll('tr.version-waiting td.detail')]
          .map((td) => td.textContent)
          .filter((t) => t.includes(`waiting on ${app}`));
        return waiting.length > 0 ? { app: appRow.textContent, waiting } : null;
      },
      { app: config.app, tss: config.tss },
    ),
  );
  await screenshot(page, config.screenshot);
  say(`TSS ${JSON.stringify(seen)}`);
}

async function screenshot(page, path) {
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
}

const userDataDir = mkdtempSync(join(tmpdir(), 'arcon-webui-chromium-'));
let context;
let exitCode = 0;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1500, height: 1000 },
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on('pageerror', (e) => say(`PAGE ERROR ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') {
      say(`PAGE CONSOLE ${m.text()}`);
    }
  });
  try {
    if (config.mode === 'job') {
      await checkJobPage(page);
    } else if (config.mode === 'tss') {
      await checkTssPage(page);
    } else {
      throw new CheckFailed(`unknown mode ${config.mode}: give "job" or "tss"`);
    }
    say('OK');
  } catch (e) {
    exitCode = 1;
    say(`FAIL ${e instanceof CheckFailed ? e.message : e.stack}`);
    await screenshot(page, config.screenshot.replace(/\.png$/, '-failed.png')).catch(() => {});
  }
} catch (e) {
  exitCode = 1;
  say(`FAIL cannot start ${CHROMIUM}: ${e.stack}`);
} finally {
  await context?.close().catch(() => {});
  rmSync(userDataDir, { recursive: true, force: true });
}
process.exit(exitCode);
