// arena report: draws the head-to-head heat map from the page's JSON
// (#matrix-data) as SVG, fits the charts' labels to their room, and
// filters the games table. Names are set as text (textContent), never as
// markup.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var el = function (name, attrs) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  };
  // share is the row's score per game against the column: red (0) to
  // white (1/2) to green (1).
  var shade = function (share) {
    var t = Math.max(-1, Math.min(1, 2 * share - 1));
    var mix = function (a, b, f) { return Math.round(a + (b - a) * f); };
    var c = t >= 0 ? [mix(255, 46, t), mix(255, 160, t), mix(255, 67, t)] : [mix(255, 214, -t), mix(255, 48, -t), mix(255, 49, -t)];
    return "rgb(" + c.join(",") + ")";
  };
  var fmt = function (x) { return String(Math.round(x * 10) / 10); };
  // fit sets the SVG text element text to name, or to the longest start
  // of it with "…" after it that is at most room units wide (measured in
  // the page's own font, so a label is cut only where it does not fit,
  // and never clipped by its chart's edge), and returns its width.
  var fit = function (text, name, room) {
    text.textContent = name;
    var width = text.getComputedTextLength();
    if (width <= room) return width;
    var chars = Array.from(name), lo = 0, hi = chars.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      text.textContent = chars.slice(0, mid).join("") + "…";
      if (text.getComputedTextLength() <= room) lo = mid; else hi = mid - 1;
    }
    text.textContent = chars.slice(0, lo).join("") + "…";
    return text.getComputedTextLength();
  };
  // The lines' labels of the charts (the name whole is their line's
  // title, on hover).
  var ends = document.querySelectorAll("svg.chart text[data-room]");
  for (var e = 0; e < ends.length; e++) fit(ends[e], ends[e].textContent, parseFloat(ends[e].getAttribute("data-room")));

  var data = JSON.parse(document.getElementById("matrix-data").textContent);
  var n = data.bots.length;
  var host = document.getElementById("matrix");
  var info = document.getElementById("cell-info");
  var figure = function (i, j) { return fmt(data.score[i][j]) + "/" + data.games[i][j]; };
  if (n > 0) {
    var svg = el("svg", { role: "img", "aria-label": "head-to-head heat map" });
    host.appendChild(svg); // in the page, where text can be measured
    var probe = el("text", {});
    svg.appendChild(probe);
    // Cells shrink with the field (down to 3 units) so that the whole
    // matrix fits about 900 units, and grow (from 34) for figures as
    // wide as an SPRT's hundreds of games; each cell shows its figures
    // only if the widest fits a cell.
    var most = Math.floor(900 / n), figFont = 10, figWidth = 0, measured = {};
    if (most >= 2 * figFont) {
      probe.setAttribute("font-size", figFont);
      for (var a = 0; a < n; a++) {
        for (var b = 0; b < n; b++) {
          if (a === b || data.games[a][b] === 0) continue;
          var f = figure(a, b);
          if (!(f in measured)) {
            probe.textContent = f;
            measured[f] = probe.getComputedTextLength();
            figWidth = Math.max(figWidth, measured[f]);
          }
        }
      }
    }
    var cell = Math.max(3, Math.min(most, Math.max(34, Math.ceil(figWidth) + 8)));
    var figures = cell >= 2 * figFont && figWidth + 4 <= cell;
    // Names show while they can be read, each whole where it fits the
    // labels' room, else its start and "…" (whole on hover).
    var labels = cell >= 9;
    var font = Math.min(12, cell - 1);
    var shown = [], widest = 0;
    if (labels) {
      probe.setAttribute("font-size", font);
      for (var k = 0; k < n; k++) {
        widest = Math.max(widest, fit(probe, data.bots[k], data.room));
        shown.push(probe.textContent);
      }
    }
    svg.removeChild(probe);
    // A tooltip element per cell costs a node each: large fields show a
    // cell's figures above the matrix on hover instead.
    var titles = n <= 60;
    var pad = labels ? Math.ceil(widest) + 8 : 4;
    var size = pad + n * cell;
    svg.setAttribute("width", size);
    svg.setAttribute("height", size);
    svg.setAttribute("viewBox", "0 0 " + size + " " + size);
    var label = function (i, attrs) {
      var g = el("g", { "class": "label" }), t = el("title", {}), text = el("text", attrs);
      t.textContent = data.bots[i];
      text.textContent = shown[i];
      g.appendChild(t);
      g.appendChild(text);
      svg.appendChild(g);
    };
    for (var i = 0; i < n; i++) {
      if (labels) {
        label(i, { x: pad - 4, y: pad + i * cell + cell / 2 + font / 3, "text-anchor": "end", "font-size": font });
        var cx = pad + i * cell + cell / 2 + font / 3, cy = pad - 4;
        label(i, { x: cx, y: cy, transform: "rotate(-90 " + cx + " " + cy + ")", "font-size": font });
      }
      for (var j = 0; j < n; j++) {
        var g = data.games[i][j], s = data.score[i][j];
        var fill = i === j ? "#6b7280" : g === 0 ? "#e5e7eb" : shade(s / g);
        var r = el("rect", { "class": "cell", x: pad + j * cell, y: pad + i * cell, width: cell, height: cell, fill: fill, "data-r": i, "data-c": j });
        var tip = i === j ? data.bots[i] : g === 0 ? data.bots[i] + " vs " + data.bots[j] + ": never met"
          : data.bots[i] + " vs " + data.bots[j] + ": " + figure(i, j) + " (" + Math.round(100 * s / g) + "%)";
        r.setAttribute("data-tip", tip);
        if (titles) {
          var t = el("title", {});
          t.textContent = tip;
          r.appendChild(t);
        }
        svg.appendChild(r);
        if (figures && i !== j && g > 0) {
          var v = el("text", { x: pad + j * cell + cell / 2, y: pad + i * cell + cell / 2 + figFont * 0.35, "text-anchor": "middle", "font-size": figFont, "pointer-events": "none" });
          v.textContent = figure(i, j);
          svg.appendChild(v);
        }
      }
    }
    // Labels need room above and left: the SVG is drawn from pad on.
    var selected = null;
    svg.addEventListener("mouseover", function (ev) {
      if (!titles && ev.target.classList && ev.target.classList.contains("cell")) info.textContent = ev.target.getAttribute("data-tip");
    });
    svg.addEventListener("click", function (ev) {
      var target = ev.target;
      if (!target.classList || !target.classList.contains("cell")) return;
      if (selected) selected.classList.remove("selected");
      selected = target;
      target.classList.add("selected");
      info.textContent = target.getAttribute("data-tip");
    });
    host.setAttribute("data-bots", String(n));
  } else {
    host.textContent = "No bots.";
  }

  var filter = document.getElementById("game-filter");
  if (filter) {
    var rows = document.querySelectorAll("#games tbody tr");
    filter.addEventListener("input", function () {
      var q = filter.value.toLowerCase();
      for (var k = 0; k < rows.length; k++) {
        rows[k].hidden = q !== "" && rows[k].textContent.toLowerCase().indexOf(q) < 0;
      }
    });
  }
})();
