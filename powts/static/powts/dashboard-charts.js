// The maintenance dashboard's two charts. A file, not an inline script, so the page's
// Content-Security-Policy can refuse inline scripts; the data comes from the page's json_script.
(function () {
  var source = document.getElementById("maintenance-chart");
  if (!window.Chart || !source) return;
  var d = JSON.parse(source.textContent);
  new Chart(document.getElementById("trend"), {type: "bar", data: {labels: d.labels, datasets: [
    {label: "Reports received", data: d.reports}, {label: "Late reports", data: d.late},
    {label: "Notices sent", data: d.notices, type: "line"}]}});
  new Chart(document.getElementById("standing"), {type: "doughnut", data: {labels: Object.keys(d.standing),
    datasets: [{data: Object.values(d.standing)}]}});
})();
