'use strict';

// The job graph as SVG: a box per fused chain (its Beam transforms, its parallelism, live figures),
// laid out top to bottom by distance from the sources, and an arrow per edge labelled with its kind.
const ArconGraph = (() => {
  const SVG = 'http://www.w3.org/2000/svg';
  const CHAR_WIDTH = 7.3; // of the 12 px monospace font the boxes use
  const LINE = 16;
  const PAD = 10;
  const COLUMN_GAP = 40;
  const ROW_GAP = 64;
  // Beam's full names of nested transforms get long; the box shows their start (where the user's
  // names are), the tooltip the whole name.
  const MAX_NAME = 60;

  function shorten(name) {
    return name.length <= MAX_NAME ? name : `${name.slice(0, MAX_NAME - 1)}…`;
  }

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      e.setAttribute(key, value);
    }
    if (text !== undefined) {
      e.textContent = text;
    }
    return e;
  }

  /** Layer of each vertex: 0 for sources, else one more than its furthest input. */
  function layers(graph) {
    const layer = new Map(graph.vertices.map((v) => [v.id, 0]));
    // A DAG settles within |V| rounds; the bound guards against a cycle.
    for (let round = 0; round < graph.vertices.length; round++) {
      let changed = false;
      for (const e of graph.edges) {
        if (e.source !== e.target && layer.get(e.target) < layer.get(e.source) + 1) {
          layer.set(e.target, layer.get(e.source) + 1);
          changed = true;
        }
      }
      if (!changed) {
        break;
      }
    }
    return layer;
  }

  function liveLines(figures) {
    if (!figures) {
      return ['', ''];
    }
    const lag =
      figures.outputWatermarkLagMillis !== null
        ? `wm lag ${Arcon.duration(figures.outputWatermarkLagMillis)}`
        : `wm ${figures.outputWatermark}`;
    return [
      `in ${Arcon.integer(figures.recordsIn)} (${Arcon.rate(figures.recordsInPerSecond)}/s)` +
        ` · out ${Arcon.integer(figures.recordsOut)} (${Arcon.rate(figures.recordsOutPerSecond)}/s)`,
      `${figures.status.toLowerCase()} · back-pressure ${Arcon.percent(figures.backPressure)} · ${lag}`,
    ];
  }

  /** Draws the graph into container; returns { update(vertexFigures) } for the live lines. */
  function draw(container, graph) {
    const layer = layers(graph);
    const rows = [];
    for (const v of graph.vertices) {
      const l = layer.get(v.id);
      (rows[l] = rows[l] || []).push(v);
    }
    // Top to bottom, a row per layer: pipelines are deeper than wide, and pages scroll down.
    const boxes = new Map();
    let y = PAD;
    let width = 0;
    for (const row of rows.filter(Boolean)) {
      let x = PAD;
      let height = 0;
      for (const v of row) {
        const longest = Math.max(...v.operators.map((o) => shorten(o).length + 2), 62);
        const w = longest * CHAR_WIDTH + 2 * PAD;
        const h = PAD + LINE * (1 + v.operators.length) + 6 + 2 * LINE + PAD;
        boxes.set(v.id, { x, y, w, h, vertex: v });
        x += w + COLUMN_GAP;
        height = Math.max(height, h);
      }
      width = Math.max(width, x - COLUMN_GAP + PAD);
      y += height + ROW_GAP;
    }
    const root = svg('svg', {
      width: Math.max(width, 200),
      height: Math.max(y - ROW_GAP + PAD, 60),
      class: 'job-graph',
      role: 'img',
      'aria-label': 'Job graph',
    });
    const defs = svg('defs');
    const marker = svg('marker', {
      id: 'arrow',
      viewBox: '0 0 10 10',
      refX: 10,
      refY: 5,
      markerWidth: 8,
      markerHeight: 8,
      orient: 'auto-start-reverse',
    });
    marker.append(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' }));
    defs.append(marker);
    root.append(defs);

    for (const e of graph.edges) {
      const from = boxes.get(e.source);
      const to = boxes.get(e.target);
      const x1 = from.x + from.w / 2;
      const y1 = from.y + from.h;
      const x2 = to.x + to.w / 2;
      const y2 = to.y;
      const bend = Math.max(30, Math.abs(y2 - y1) / 2);
      const g = svg('g', { class: `edge edge-${e.kind.toLowerCase()}` });
      g.append(
        svg('path', {
          d: `M ${x1} ${y1} C ${x1} ${y1 + bend}, ${x2} ${y2 - bend}, ${x2} ${y2}`,
          'marker-end': 'url(#arrow)',
        }),
      );
      g.append(svg('text', { x: (x1 + x2) / 2 + 6, y: (y1 + y2) / 2 + 4 }, e.kind));
      root.append(g);
    }

    const live = new Map();
    for (const { x: bx, y: by, w, h, vertex } of boxes.values()) {
      const g = svg('g', { class: 'chain', 'data-vertex': vertex.id });
      g.append(svg('rect', { x: bx, y: by, width: w, height: h, rx: 6 }));
      let ty = by + PAD + 12;
      g.append(
        svg(
          'text',
          { x: bx + PAD, y: ty, class: 'chain-title' },
          `chain ${vertex.id}  ×${vertex.parallelism}`,
        ),
      );
      for (const op of vertex.operators) {
        ty += LINE;
        const operator = svg('g', { class: 'operator' });
        operator.append(svg('title', {}, op));
        operator.append(svg('text', { x: bx + PAD, y: ty, class: 'transform' }, shorten(op)));
        g.append(operator);
      }
      ty += 6;
      g.append(svg('line', { x1: bx, x2: bx + w, y1: ty, y2: ty, class: 'separator' }));
      const lines = [];
      for (let i = 0; i < 2; i++) {
        ty += LINE;
        const t = svg('text', { x: bx + PAD, y: ty, class: 'live' }, '');
        lines.push(t);
        g.append(t);
      }
      live.set(vertex.id, { group: g, lines });
      root.append(g);
    }
    container.replaceChildren(root);

    return {
      update(vertexFigures) {
        for (const figures of vertexFigures) {
          const box = live.get(figures.id);
          if (!box) {
            continue;
          }
          const texts = liveLines(figures);
          box.lines.forEach((t, i) => {
            t.textContent = texts[i];
          });
          box.group.setAttribute(
            'class',
            `chain status-${figures.status.toLowerCase()}` +
              (figures.backPressure >= 0.5 ? ' back-pressured' : ''),
          );
        }
      },
    };
  }

  return { draw };
})();
