// The maintenance dashboard's two charts. A file, not an inline script, so the page's
// Content-Security-Policy can refuse inline scripts; the data comes from the page's json_script.
// A click on a bar or a segment opens the list behind it (the links come with the data).
(function () {
  var source = document.getElementById("maintenance-chart");
  if (!window.Chart || !source) return;
  var d = JSON.parse(source.textContent);
  function opener(linksFor) {
    return function (event, elements) {
      if (!elements.length) return;
      var links = linksFor(elements[0].datasetIndex);
      var href = links && links[elements[0].index];
      if (href) window.location.assign(href);
    };
  }
  function pointer(event, elements) {
    event.native.target.style.cursor = elements.length ? "pointer" : "default";
  }
  new Chart(document.getElementById("trend"), {type: "bar", data: {labels: d.labels, datasets: [
    {label: "Reports received", data: d.reports}, {label: "Late reports", data: d.late},
    {label: "Notices sent", data: d.notices, type: "line"}]},
    options: {onHover: pointer, onClick: opener(function (i) { return [d.reports_links, d.late_links, null][i]; })}});
  new Chart(document.getElementById("standing"), {type: "doughnut", data: {labels: Object.keys(d.standing),
    datasets: [{data: Object.values(d.standing)}]},
    options: {onHover: pointer, onClick: opener(function () { return d.standing_links; })}});
})();
