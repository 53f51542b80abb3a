/* The map page: systems (server clusters at low zoom, points coloured by standing at a close zoom),
   permits and complaints, from the GeoJSON API for the box in view. Text stays beside the picture:
   the summary and the list under the map say what is in view. */
(function () {
  "use strict";
  var element = document.getElementById("map");
  if (!element || !window.L) { return; }
  var settings = JSON.parse(document.getElementById("map-settings").textContent);
  var api = element.getAttribute("data-api");
  var query = element.getAttribute("data-query");
  var COLOURS = { failing: "#b50909", overdue: "#e66f0e", due_soon: "#ffbe2e", needs_data: "#71767a",
                  current: "#00a91c", off_cycle: "#ffffff" };
  var ORDER = ["failing", "overdue", "due_soon", "needs_data", "current", "off_cycle"];

  var map = L.map(element, { keyboard: true });
  if (settings.bounds) {
    map.fitBounds([[settings.bounds[1], settings.bounds[0]], [settings.bounds[3], settings.bounds[2]]], { maxZoom: 15 });
  } else {
    map.setView(settings.center, settings.zoom);
  }
  // Tiles are a background only: when their server cannot be reached the points still show.
  L.tileLayer(settings.tiles, { attribution: settings.attribution, maxZoom: 19 }).addTo(map);

  var layers = {
    clusters: L.layerGroup().addTo(map),
    systems: L.markerClusterGroup({ disableClusteringAtZoom: 18, showCoverageOnHover: false }).addTo(map),
    permits: L.layerGroup().addTo(map),
    complaints: L.layerGroup().addTo(map)
  };
  var found = { systems: null, permits: null, complaints: null };
  var pending = null;

  function number(n) { return Number(n).toLocaleString("en-US"); }

  function link(p) {
    var a = document.createElement("a");
    a.href = p.url;
    a.textContent = p.label;
    a.className = "powts-popup-link";
    return a;
  }

  function popup(p, words) {
    var box = document.createElement("div");
    var strong = document.createElement("strong");
    strong.appendChild(link(p));
    box.appendChild(strong);
    [p.address, words].forEach(function (text) {
      if (text) { box.appendChild(document.createElement("br")); box.appendChild(document.createTextNode(text)); }
    });
    return box;
  }

  function standingWords(counts) {
    return ORDER.filter(function (k) { return counts[k]; }).map(function (k) {
      return number(counts[k]) + " " + settings.labels[k].toLowerCase();
    }).join(", ");
  }

  function drawSystems(data) {
    layers.clusters.clearLayers();
    layers.systems.clearLayers();
    data.features.forEach(function (f) {
      var p = f.properties;
      var at = [f.geometry.coordinates[1], f.geometry.coordinates[0]];
      if (p.kind === "cluster") {
        var size = p.count < 100 ? 34 : (p.count < 10000 ? 44 : 56);
        var words = number(p.count) + " system" + (p.count === 1 ? "" : "s") + ": " + standingWords(p.standing) + ". Select to zoom in.";
        var marker = L.marker(at, {
          icon: L.divIcon({ className: "powts-cluster", html: number(p.count), iconSize: [size, size] }),
          title: words, alt: words, keyboard: true
        });
        marker.on("click keypress", function () { map.setView(at, Math.min(map.getZoom() + 2, 18)); });
        layers.clusters.addLayer(marker);
      } else {
        L.circleMarker(at, { radius: 8, color: "#1b1b1b", weight: 2, fillColor: COLOURS[p.standing] || "#71767a", fillOpacity: 0.95 })
          .bindPopup(popup(p, p.standing_label)).addTo(layers.systems);
      }
    });
  }

  function drawPoints(layer, data, colour) {
    layers[layer].clearLayers();
    data.features.forEach(function (f) {
      var p = f.properties;
      L.circleMarker([f.geometry.coordinates[1], f.geometry.coordinates[0]],
                     { radius: 6, color: "#1b1b1b", weight: 1, fillColor: colour, fillOpacity: 0.9 })
        .bindPopup(popup(p, "Status: " + p.status)).addTo(layers[layer]);
    });
  }

  function describe() {
    var parts = [];
    var rows = [];
    var s = found.systems;
    if (s && on("systems")) {
      var props = s.properties;
      parts.push(number(props.total) + " system" + (props.total === 1 ? "" : "s") + (props.total ? " (" + standingWords(props.by_standing) + ")" : ""));
      if (props.kind === "clusters") {
        parts.push("shown in groups; zoom in to see and list single systems");
      } else {
        s.features.forEach(function (f) { rows.push([f.properties, f.properties.standing_label]); });
      }
    }
    ["permits", "complaints"].forEach(function (name) {
      var d = found[name];
      if (d && on(name)) {
        parts.push(number(d.properties.total) + " " + name);
        d.features.forEach(function (f) { rows.push([f.properties, f.properties.status]); });
      }
    });
    document.getElementById("map-summary").textContent = "In view: " + parts.join("; ") + ".";
    var table = document.getElementById("map-list");
    var body = table.querySelector("tbody");
    body.textContent = "";
    rows.slice(0, 200).forEach(function (r) {
      var tr = document.createElement("tr");
      var td = document.createElement("td");
      td.appendChild(link(r[0]));
      tr.appendChild(td);
      [r[0].address || "", r[1] || ""].forEach(function (text) {
        var cell = document.createElement("td");
        cell.textContent = text;
        tr.appendChild(cell);
      });
      body.appendChild(tr);
    });
    table.hidden = rows.length === 0;
  }

  function on(name) { return document.getElementById("layer-" + name).checked; }

  function bbox() {
    var b = map.getBounds();
    return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()].map(function (v) { return v.toFixed(6); }).join(",");
  }

  function load() {
    if (pending) { pending.abort(); }
    pending = new AbortController();
    var signal = pending.signal;
    var box = bbox();
    var zoom = map.getZoom();
    var get = function (path, extra) {
      return fetch(api + path + "?bbox=" + box + extra, { credentials: "same-origin", signal: signal, headers: { Accept: "application/geo+json" } })
        .then(function (r) { if (!r.ok) { throw new Error("The map could not load " + path + " (" + r.status + ")."); } return r.json(); });
    };
    Promise.all([
      on("systems") ? get("systems.geojson", "&zoom=" + zoom + (query ? "&" + query : "")) : Promise.resolve(null),
      on("permits") ? get("permits.geojson", "") : Promise.resolve(null),
      on("complaints") ? get("complaints.geojson", "") : Promise.resolve(null)
    ]).then(function (results) {
      found.systems = results[0]; found.permits = results[1]; found.complaints = results[2];
      if (results[0]) { drawSystems(results[0]); } else { layers.clusters.clearLayers(); layers.systems.clearLayers(); }
      if (results[1]) { drawPoints("permits", results[1], "#005ea2"); } else { layers.permits.clearLayers(); }
      if (results[2]) { drawPoints("complaints", results[2], "#8168b3"); } else { layers.complaints.clearLayers(); }
      element.setAttribute("data-loaded", String(Date.now()));
      describe();
    }).catch(function (error) {
      if (error.name !== "AbortError") { document.getElementById("map-summary").textContent = error.message; }
    });
  }

  ["systems", "permits", "complaints"].forEach(function (name) {
    document.getElementById("layer-" + name).addEventListener("change", load);
  });
  map.on("moveend", load);
  load();
}());
