// The page updates itself from the feed (/events): each game that
// becomes visible redraws its main part, fetched again. Without
// EventSource, or while the feed is down, it polls.
(function () {
  "use strict";
  var live = document.getElementById("live");
  var busy = false, again = false, poll = null;
  function redraw() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.href, { cache: "no-store" }).then(function (r) {
      if (!r.ok) { throw new Error(r.status); }
      return r.text();
    }).then(function (text) {
      var doc = new DOMParser().parseFromString(text, "text/html");
      var main = doc.getElementById("main");
      if (main) { document.getElementById("main").replaceWith(main); }
    }).catch(function () {}).finally(function () {
      busy = false;
      if (again) { again = false; redraw(); }
    });
  }
  function polling() {
    if (poll === null) { poll = setInterval(redraw, 5000); }
    live.className = "";
    live.textContent = "polling";
  }
  if (!window.EventSource) { polling(); return; }
  var feed = new EventSource("/events?after=" + encodeURIComponent(document.body.dataset.after));
  feed.addEventListener("game", redraw);
  feed.addEventListener("reset", redraw);
  feed.onopen = function () {
    if (poll !== null) { clearInterval(poll); poll = null; }
    live.className = "on";
    live.textContent = "live";
  };
  feed.onerror = polling; // the browser reconnects by itself meanwhile
})();
