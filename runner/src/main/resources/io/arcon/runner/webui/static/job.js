'use strict';

// The job page: summary, graph, node figures, epochs and Beam metrics, refreshed every second.
(() => {
  const { el, integer, rate, percent, bytes, duration, time } = Arcon;
  const id = Arcon.jobId();
  const apiPath = `/api/jobs/${encodeURIComponent(id)}`;
  let graph = null;

  function summary(job) {
    document.title = `${job.name} · ArconRunner`;
    document.getElementById('job-name').textContent = job.name;
    const state = document.getElementById('job-state');
    state.textContent = job.state;
    state.className = `state state-${job.state.toLowerCase()}`;
    const tss = document.getElementById('tss-link');
    if (job.tssPage) {
      tss.hidden = false;
      tss.setAttribute('href', Arcon.withToken(job.tssPage));
    }
    document.getElementById('json-link').setAttribute('href', Arcon.withToken(apiPath));
    const ended = job.endTimeMillis != null;
    const runFor = (ended ? job.endTimeMillis : Date.now()) - job.startTimeMillis;
    const failure = job.failure ? [['Failure', job.failure]] : [];
    Arcon.fillSummary('summary', [
      ['Started', time(job.startTime)],
      [ended ? 'Ran for' : 'Running for', duration(runFor)],
      ...failure,
      ['Attempts', integer(job.attempts)],
      ['Figures read', time(job.sampledAt)],
      ['TSS', job.tss ? `app ${job.tss.app} at ${job.tss.endpoint}` : 'off'],
      ['Node threads', nodeThreads(job.nodeThreads)],
    ]);
  }

  // Pinned (--pinNodes): how often a node ran away from its thread, and spares for blocked ones.
  function nodeThreads(t) {
    if (!t) {
      return 'shared (--pinNodes=false)';
    }
    const spares = t.sparesRunning ? `, ${integer(t.sparesRunning)} running` : '';
    return `${integer(t.threads)} pinned · ${integer(t.steals)} node runs taken by another thread`
      + ` · ${integer(t.sparesStarted)} spare threads started${spares}`;
  }

  function cell(field, text, numeric, title) {
    return el('td', { 'data-field': field, class: numeric ? 'num' : null, title }, text);
  }

  function figureCells(f) {
    return [
      cell('status', f.status.toLowerCase()),
      cell('recordsIn', integer(f.recordsIn), true),
      cell('recordsInPerSecond', rate(f.recordsInPerSecond), true),
      cell('recordsOut', integer(f.recordsOut), true),
      cell('recordsOutPerSecond', rate(f.recordsOutPerSecond), true),
      cell('inputWatermark', time(f.inputWatermark), false, f.inputWatermark),
      cell('inputWatermarkLag', duration(f.inputWatermarkLagMillis), true),
      cell('outputWatermark', time(f.outputWatermark), false, f.outputWatermark),
      cell('outputWatermarkLag', duration(f.outputWatermarkLagMillis), true),
      cell('backPressure', percent(f.backPressure), true),
      cell('stateEngines', f.stateEngines || '–'),
      cell('stateBytes', bytes(f.stateBytes), true),
    ];
  }

  function nodes(job) {
    const rows = [];
    for (const v of job.vertices) {
      rows.push(
        el(
          'tr',
          { class: 'vertex', 'data-vertex': v.id },
          el('th', { scope: 'row', title: v.name }, `chain ${v.id}: ${v.name}`),
          ...figureCells(v),
        ),
      );
      for (const i of v.instances) {
        rows.push(
          el(
            'tr',
            { class: 'instance', 'data-vertex': v.id, 'data-instance': i.instance },
            el('th', { scope: 'row' }, `instance ${i.instance}`),
            ...figureCells(i),
          ),
        );
      }
    }
    Arcon.fillTable('nodes', rows, 'No nodes.');
  }

  function epochs(e) {
    Arcon.fillSummary('epochs', [
      ['Completed', integer(e.completed)],
      ['Given up', integer(e.givenUp)],
      ['Newest durable', e.lastCompleted ? `epoch ${e.lastCompleted} at ${time(e.lastCompletedAt)}` : 'none yet'],
      ['It took', e.lastCompleted ? duration(e.lastDurationMillis) : '–'],
      ['Its size', e.lastCompleted ? bytes(e.lastBytes) : '–'],
      ['Last given up', e.lastGivenUpReason || '–'],
    ]);
  }

  function metricName(m) {
    const labels = Object.entries(m.labels || {}).map(([k, v]) => `${k}=${v}`);
    return `${m.namespace}:${m.name}` + (labels.length ? ` {${labels.join(', ')}}` : '');
  }

  function metricRow(table, m, cells) {
    return el(
      'tr',
      { 'data-step': m.step, 'data-namespace': m.namespace, 'data-name': m.name },
      el('td', { 'data-field': 'step' }, m.step),
      el('td', { 'data-field': 'metric' }, metricName(m)),
      ...cells,
    );
  }

  function metrics(all) {
    Arcon.fillTable(
      'counters',
      all.counters.map((m) => metricRow('counters', m, [cell('value', integer(m.value), true)])),
      'No counters.',
    );
    Arcon.fillTable(
      'distributions',
      all.distributions.map((m) =>
        metricRow('distributions', m, [
          cell('count', integer(m.count), true),
          cell('sum', integer(m.sum), true),
          cell('min', m.count ? integer(m.min) : '–', true),
          cell('max', m.count ? integer(m.max) : '–', true),
          cell('mean', m.count ? rate(m.mean) : '–', true),
        ]),
      ),
      'No distributions.',
    );
    Arcon.fillTable(
      'gauges',
      all.gauges.map((m) =>
        metricRow('gauges', m, [cell('value', integer(m.value), true), cell('timestamp', time(m.timestamp))]),
      ),
      'No gauges.',
    );
  }

  async function refresh() {
    const job = await Arcon.api(apiPath);
    summary(job);
    if (!graph) {
      graph = ArconGraph.draw(document.getElementById('graph'), job.graph);
    }
    graph.update(job.vertices);
    nodes(job);
    epochs(job.epochs);
    metrics(job.metrics);
  }

  Arcon.poll(refresh, 1000);
})();
