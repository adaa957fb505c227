'use strict';

// The jobs list, refreshed every two seconds.
(() => {
  const { el } = Arcon;

  async function refresh() {
    const { jobs } = await Arcon.api('/api/jobs');
    const rows = jobs
      .slice()
      .reverse() // newest first
      .map((job) =>
        el(
          'tr',
          { 'data-job': job.id },
          el('td', {}, Arcon.link(job.page, job.name)),
          el('td', {}, el('span', { class: `state state-${job.state.toLowerCase()}` }, job.state)),
          el('td', {}, Arcon.time(job.startTime)),
          el('td', { class: 'num' }, Arcon.integer(job.attempts)),
          el('td', {}, job.tssPage ? Arcon.link(job.tssPage, 'TSS') : '–'),
        ),
      );
    Arcon.fillTable('jobs', rows, 'No jobs yet.');
  }

  Arcon.poll(refresh, 2000);
})();
