// arena report: draws the head-to-head heat map from the page's JSON
// (#matrix-data) as SVG, and filters the games table. Names are set as
// text (textContent), never as markup.
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

  var data = JSON.parse(document.getElementById("matrix-data").textContent);
  var n = data.bots.length;
  var host = document.getElementById("matrix");
  var info = document.getElementById("cell-info");
  if (n > 0) {
    // Cells shrink with the field (down to 3 units) so that the whole
    // matrix fits about 900 units; names show while they can be read.
    var cell = Math.max(3, Math.min(34, Math.floor(900 / n)));
    var labels = cell >= 9;
    // A tooltip element per cell costs a node each: large fields show a
    // cell's figures above the matrix on hover instead.
    var titles = n <= 60;
    var font = Math.min(12, cell - 1);
    var pad = labels ? Math.min(160, 12 + font * 0.62 * Math.max.apply(null, data.bots.map(function (b) { return Math.min(b.length, data.clip); }))) : 4;
    var size = pad + n * cell;
    var svg = el("svg", { width: size, height: size, viewBox: "0 0 " + size + " " + size, role: "img", "aria-label": "head-to-head heat map" });
    var clip = function (s) { return s.length > data.clip ? s.slice(0, data.clip - 1) + "…" : s; };
    for (var i = 0; i < n; i++) {
      if (labels) {
        var rl = el("text", { x: pad - 4, y: pad + i * cell + cell / 2 + font / 3, "text-anchor": "end", "font-size": font });
        rl.textContent = clip(data.bots[i]);
        svg.appendChild(rl);
        var cx = pad + i * cell + cell / 2 + font / 3, cy = pad - 4;
        var cl = el("text", { x: cx, y: cy, transform: "rotate(-90 " + cx + " " + cy + ")", "font-size": font });
        cl.textContent = clip(data.bots[i]);
        svg.appendChild(cl);
      }
      for (var j = 0; j < n; j++) {
        var g = data.games[i][j], s = data.score[i][j];
        var fill = i === j ? "#6b7280" : g === 0 ? "#e5e7eb" : shade(s / g);
        var r = el("rect", { "class": "cell", x: pad + j * cell, y: pad + i * cell, width: cell, height: cell, fill: fill, "data-r": i, "data-c": j });
        var tip = i === j ? data.bots[i] : g === 0 ? data.bots[i] + " vs " + data.bots[j] + ": never met"
          : data.bots[i] + " vs " + data.bots[j] + ": " + fmt(s) + "/" + g + " (" + Math.round(100 * s / g) + "%)";
        r.setAttribute("data-tip", tip);
        if (titles) {
          var t = el("title", {});
          t.textContent = tip;
          r.appendChild(t);
        }
        svg.appendChild(r);
        if (cell >= 30 && i !== j && g > 0) {
          var v = el("text", { x: pad + j * cell + cell / 2, y: pad + i * cell + cell / 2 + 4, "text-anchor": "middle", "font-size": 10, "pointer-events": "none" });
          v.textContent = fmt(s) + "/" + g;
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
    host.appendChild(svg);
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
