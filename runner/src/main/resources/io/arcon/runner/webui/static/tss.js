'use strict';

// The TSS page: what the job's control plane says of its apps and TSS, refreshed every two seconds.
// An unreachable control plane is shown as such; the page keeps asking.
(() => {
  const { el, time, duration, integer } = Arcon;
  const id = Arcon.jobId();
  const jobPath = `/jobs/${encodeURIComponent(id)}`;
  const apiPath = `/api/jobs/${encodeURIComponent(id)}/tss`;

  function apps(view) {
    Arcon.fillTable(
      'apps',
      view.apps.map((a) =>
        el(
          'tr',
          { 'data-app': a.name, class: a.name === view.app ? 'this-job' : null },
          el('td', {}, a.name === view.app ? `${a.name} (this job)` : a.name),
          el('td', {}, a.connected ? 'yes' : 'no'),
          el('td', {}, a.watermark ? time(a.watermark) : 'none yet'),
          el('td', { class: 'num' }, duration(a.watermarkLagMillis)),
          el('td', {}, a.historyFrom ? time(a.historyFrom) : 'no limit'),
          el('td', {}, a.finishedAt ? time(a.finishedAt) : '–'),
          el('td', { class: 'num' }, integer(a.states)),
        ),
      ),
      view.error ? 'Unknown: the control plane did not answer (see above).' : 'No apps registered.',
    );
  }

  function tssSection(t) {
    const versions = el(
      'table',
      { class: 'figures versions' },
      el('thead', {}, el('tr', {}, el('th', {}, 'Version'), el('th', {}, 'Status'), el('th', {}, 'Why / when'))),
      el(
        'tbody',
        {},
        ...t.versions.map((v) =>
          el(
            'tr',
            { class: `version-${v.status}`, 'data-version': v.version },
            el('td', {}, time(v.version)),
            el('td', {}, v.status),
            el('td', { class: 'detail' }, v.detail),
          ),
        ),
      ),
    );
    const schedule = [`at ${t.at}`];
    if (t.every && t.every !== '-') {
      schedule.push(`every ${t.every}`);
    }
    if (t.until && t.until !== '-') {
      schedule.push(`until ${t.until}`);
    }
    return el(
      'article',
      { class: 'tss', 'data-tss': t.name },
      el('h3', {}, t.name),
      el(
        'p',
        {},
        `States ${t.states}; ${schedule.join(', ')}. ` +
          `${t.committed} committed, ${t.pending} pending` +
          (t.failed && t.failed !== '0' ? `, ${t.failed} failed` : '') +
          (t.transform === 'yes' ? '; transformed with SQL' : '') +
          (t.diff === 'yes' ? '; as diffs' : '') +
          '.',
      ),
      t.error ? el('p', { class: 'notice' }, t.error) : null,
      t.statement ? el('pre', {}, t.statement) : null,
      t.committedHidden ? el('p', { class: 'hint' }, `${t.committedHidden} older committed versions not listed.`) : null,
      t.versions.length ? versions : el('p', { class: 'hint' }, 'No versions yet.'),
    );
  }

  async function refresh() {
    const view = await Arcon.api(apiPath);
    document.getElementById('title').textContent = `TSS control plane of ${id}`;
    document.title = `TSS of ${id} · ArconRunner`;
    document.getElementById('job-link').setAttribute('href', Arcon.withToken(jobPath));
    document.getElementById('json-link').setAttribute('href', Arcon.withToken(apiPath));
    Arcon.fillSummary('summary', [
      ['Control plane', view.endpoint],
      ['This job\'s app', view.app],
      ['Asked at', time(view.askedAt)],
      // Reachable but refusing (a wrong token, or a port that is no control plane) is no answer.
      ['Answers', view.error ? (view.reachable ? 'with an error' : 'no') : 'yes'],
    ]);
    const notice = document.getElementById('unreachable');
    notice.hidden = !view.error;
    notice.textContent = view.error
      ? (view.reachable ? 'The control plane refused: ' : 'The control plane is not reachable: ') + view.error
      : '';
    apps(view);
    const list = document.getElementById('tss-list');
    if (view.tss.length === 0) {
      list.replaceChildren(
        el('p', { class: 'hint' }, view.error ? 'Unknown.' : 'No TSS defined. Create one with the tss CLI (CREATE TSS ...).'),
      );
    } else {
      list.replaceChildren(...view.tss.map(tssSection));
    }
  }

  Arcon.poll(refresh, 2000);
})();
