'use strict';

// Helpers of every page. Everything shown is put in the page as text nodes or attribute values
// (never as HTML), so names and values from the job cannot inject markup.
const Arcon = (() => {
  const token = new URLSearchParams(window.location.search).get('token');

  /** A path of this server with the page's access token passed on. */
  function withToken(path) {
    if (!token) {
      return path;
    }
    return path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token);
  }

  async function api(path) {
    const response = await fetch(withToken(path), { cache: 'no-store' });
    if (!response.ok) {
      const text = (await response.text()).trim();
      throw new Error(`${path} answered ${response.status}: ${text}`);
    }
    return response.json();
  }

  /** An element with attributes (class, text, or any attribute) and children (nodes or text). */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) {
        continue;
      }
      if (key === 'class') {
        e.className = value;
      } else if (key === 'text') {
        e.textContent = value;
      } else {
        e.setAttribute(key, value);
      }
    }
    for (const child of children) {
      if (child !== null && child !== undefined) {
        e.append(child instanceof Node ? child : String(child));
      }
    }
    return e;
  }

  /** A link to a path of this server (token passed on). */
  function link(path, text) {
    return el('a', { href: withToken(path) }, text);
  }

  /** Links written in the page as data-path get the token too. */
  function passTokenOnLinks() {
    for (const a of document.querySelectorAll('a[data-path]')) {
      a.setAttribute('href', withToken(a.getAttribute('data-path')));
    }
  }

  const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  const rateFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

  function integer(n) {
    return n === null || n === undefined ? '–' : integerFormat.format(n);
  }

  function rate(n) {
    return n === null || n === undefined ? '–' : rateFormat.format(n);
  }

  function percent(share) {
    return share === null || share === undefined ? '–' : `${Math.round(share * 100)} %`;
  }

  function bytes(n) {
    if (n === null || n === undefined) {
      return '–';
    }
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let value = n;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return unit === 0 ? `${n} B` : `${value.toFixed(1)} ${units[unit]}`;
  }

  /** Milliseconds as "850 ms", "12.3 s", "4 min 05 s", "2 h 03 min"; negative ones with a sign. */
  function duration(ms) {
    if (ms === null || ms === undefined) {
      return '–';
    }
    const sign = ms < 0 ? '−' : '';
    const a = Math.abs(ms);
    if (a < 1000) {
      return `${sign}${Math.round(a)} ms`;
    }
    if (a < 60_000) {
      return `${sign}${(a / 1000).toFixed(1)} s`;
    }
    const s = Math.floor(a / 1000);
    if (s < 3600) {
      return `${sign}${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
    }
    return `${sign}${Math.floor(s / 3600)} h ${String(Math.floor(s / 60) % 60).padStart(2, '0')} min`;
  }

  /**
   * An ISO-8601 time (UTC) as "22:47:36.123" when it is today, else as "2026-12-02 13:00:00.000";
   * "none" and "end" (watermarks) stay as they are.
   */
  function time(iso) {
    if (iso === null || iso === undefined) {
      return '–';
    }
    const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(iso);
    if (!m) {
      return iso;
    }
    const millis = (m[3] || '.000').slice(0, 4).padEnd(4, '0');
    const today = new Date().toISOString().slice(0, 10);
    return m[1] === today ? `${m[2]}${millis}` : `${m[1]} ${m[2]}${millis}`;
  }

  /** The job id of a /jobs/<id> page. */
  function jobId() {
    const m = window.location.pathname.match(/^\/jobs\/([^/]+)/);
    return m ? decodeURIComponent(m[1]) : null;
  }

  function setStatus(text, isError) {
    const status = document.getElementById('status');
    status.textContent = text;
    status.classList.toggle('error', Boolean(isError));
  }

  /**
   * Calls refresh now and then every periodMillis (after the previous call ended), showing when
   * the page was last updated, or why it could not be.
   */
  function poll(refresh, periodMillis) {
    const tick = async () => {
      try {
        const stop = await refresh();
        setStatus(`Updated ${new Date().toLocaleTimeString('en-GB')}`, false);
        if (stop === true) {
          return;
        }
      } catch (e) {
        setStatus(`Cannot update: ${e.message}`, true);
      }
      window.setTimeout(tick, periodMillis);
    };
    tick();
  }

  /** Replaces a table body's rows. */
  function fillTable(tableId, rows, emptyText) {
    const body = document.querySelector(`#${tableId} tbody`);
    const columns = document.querySelectorAll(`#${tableId} thead th`).length;
    if (rows.length === 0) {
      body.replaceChildren(el('tr', { class: 'empty' }, el('td', { colspan: columns }, emptyText)));
    } else {
      body.replaceChildren(...rows);
    }
  }

  /** A definition list's entries: [[term, value-or-node], ...]. */
  function fillSummary(listId, entries) {
    const items = [];
    for (const [term, value] of entries) {
      items.push(el('div', {}, el('dt', {}, term), el('dd', {}, value)));
    }
    document.getElementById(listId).replaceChildren(...items);
  }

  document.addEventListener('DOMContentLoaded', passTokenOnLinks);

  return {
    withToken, api, el, link, integer, rate, percent, bytes, duration, time, jobId, poll,
    fillTable, fillSummary, setStatus,
  };
})();
