/* The application form's "draw the plot plan on the map" (Leaflet with Geoman). Each shape drawn takes the
   feature chosen in "What you draw next"; the drawing is written, as GeoJSON in longitude and latitude, to
   the plot plan field the form files and the setback check reads. On the permit page the stored plan is
   drawn again (settings.plan) and, for those who may replace it (settings.editable), edited the same way
   and written to the field the map names (data-target). A file, not an inline script (CSP). */
(function () {
  "use strict";
  var element = document.getElementById("plot-map");
  if (!element || !window.L || !L.PM) { return; }
  var settings = JSON.parse(document.getElementById("plot-map-settings").textContent);
  var editable = settings.editable !== false;
  var target = document.getElementById(element.getAttribute("data-target") || "plot_plan");
  var kind = document.getElementById("draw-kind");
  var county = document.getElementById("jurisdiction");
  var list = document.getElementById("plot-map-list");
  var status = document.getElementById("plot-map-status");
  var CRS84 = { type: "name", properties: { name: "urn:ogc:def:crs:OGC:1.3:CRS84" } };

  var map = L.map(element, { keyboard: true });
  function centre() {
    var slug = county ? county.value : settings.own;
    map.setView(settings.centers[slug] || settings.fallback, settings.zoom);
  }
  centre();
  if (county) { county.addEventListener("change", centre); }
  // Tiles are a background only: with no tile server reachable the drawing still works on a blank map.
  L.tileLayer(settings.tiles, { attribution: settings.attribution, maxZoom: 21, maxNativeZoom: 19 }).addTo(map);
  if (editable) { map.pm.addControls({ position: "topleft", drawCircle: false, drawCircleMarker: false, drawText: false,
                       cutPolygon: false, rotateMode: false, dragMode: false }); }
  // Geoman's tool buttons are links with an icon only: each is named by its title, for screen readers.
  element.querySelectorAll(".button-container[title]").forEach(function (container) {
    var button = container.querySelector(".leaflet-buttons-control-button");
    if (button) { button.setAttribute("aria-label", container.getAttribute("title")); }
  });
  var drawn = L.featureGroup().addTo(map);

  function labelOf(value) {
    var option = kind ? kind.querySelector("option[value='" + value + "']") : null;
    return option ? option.textContent : (settings.labels && settings.labels[value]) || value;
  }

  function write() {
    var features = [];
    list.innerHTML = "";
    drawn.eachLayer(function (layer) {
      var feature = layer.toGeoJSON();
      feature.properties = { kind: layer.powtsKind, name: labelOf(layer.powtsKind) + " " + (features.length + 1) };
      features.push(feature);
      var item = document.createElement("li");
      item.textContent = feature.properties.name + " (" + feature.geometry.type + ")";
      if (editable) {  // removing a shape without the map's tools (keyboard, screen reader)
        var remove = document.createElement("button");
        remove.type = "button";
        remove.className = "usa-button usa-button--unstyled margin-left-1";
        remove.textContent = "Remove " + feature.properties.name;
        remove.addEventListener("click", function () { drawn.removeLayer(layer); write(); });
        item.appendChild(remove);
      }
      list.appendChild(item);
    });
    if (target) { target.value = features.length ? JSON.stringify({ type: "FeatureCollection", crs: CRS84, features: features }) : ""; }
    status.textContent = features.length ? features.length + " feature(s) " + (settings.plan ? "on the plan." : "drawn; check the setbacks below.")
      : "Nothing drawn yet.";
  }

  function keep(layer, value) {
    layer.powtsKind = value;
    drawn.addLayer(layer);
    layer.bindTooltip(labelOf(value));
    layer.on("pm:edit", write);
  }

  // The stored plan, drawn again: each feature keeps its kind; the map shows the plan rather than the county.
  if (settings.plan) {
    L.geoJSON(settings.plan, {
      onEachFeature: function (feature, layer) { keep(layer, (feature.properties || {}).kind || ""); }
    });
    if (drawn.getLayers().length) { map.fitBounds(drawn.getBounds(), { padding: [20, 20], maxZoom: 20 }); }
    if (!editable) { drawn.eachLayer(function (layer) { if (layer.pm) { layer.pm.disable(); } layer.options.pmIgnore = true; }); }
    write();
  }

  map.on("pm:create", function (event) {
    var layer = event.layer;
    map.removeLayer(layer);
    keep(layer, kind.value);
    write();
  });
  // Typed points (_plot_type_points.html): feet east and north of a reference corner, placed at the middle of the
  // map (or of the stored plan) when the first is typed; turned into longitude and latitude on the WGS 84
  // ellipsoid as the server's plot_files._feet_per_degree does, so the setbacks measured are the feet typed.
  var typed = { shape: document.getElementById("typed-shape"), points: document.getElementById("typed-points"),
                add: document.getElementById("typed-add"), error: document.getElementById("typed-error") };
  var corner = null;
  function feetPerDegree(latitude) {
    var phi = latitude * Math.PI / 180;
    var mLat = 111132.92 - 559.82 * Math.cos(2 * phi) + 1.175 * Math.cos(4 * phi);
    var mLon = 111412.84 * Math.cos(phi) - 93.5 * Math.cos(3 * phi);
    return [mLon / 0.3048, mLat / 0.3048];
  }
  function refuse(message) {
    typed.error.textContent = message;
    typed.error.hidden = false;
    typed.points.setAttribute("aria-invalid", "true");
    typed.points.focus();
  }
  function addTyped() {
    var shape = typed.shape.value;
    var parts = typed.points.value.split(";").map(function (p) { return p.trim(); }).filter(Boolean);
    var points = [];
    for (var i = 0; i < parts.length; i++) {
      var xy = parts[i].split(/[\s,]+/).filter(Boolean).map(Number);
      if (xy.length !== 2 || !isFinite(xy[0]) || !isFinite(xy[1]) || Math.abs(xy[0]) > 10000 || Math.abs(xy[1]) > 10000) {
        return refuse("Points: “" + parts[i] + "” is not two numbers of feet (east, north) under 10,000.");
      }
      points.push(xy);
    }
    var need = { point: 1, line: 2, area: 3 }[shape];
    if (points.length < need || (shape === "point" && points.length > 1)) {
      return refuse("Points: " + (shape === "point" ? "a point is one pair of numbers" : "a " + shape + " needs at least " + need + " points")
                    + "; " + points.length + " given.");
    }
    if (!corner) { corner = drawn.getLayers().length ? drawn.getBounds().getSouthWest() : map.getCenter(); }
    var f = feetPerDegree(corner.lat);
    var latlngs = points.map(function (p) { return L.latLng(corner.lat + p[1] / f[1], corner.lng + p[0] / f[0]); });
    var layer = shape === "point" ? L.marker(latlngs[0]) : shape === "line" ? L.polyline(latlngs) : L.polygon(latlngs);
    keep(layer, kind.value);
    write();
    typed.error.hidden = true;
    typed.error.textContent = "";
    typed.points.removeAttribute("aria-invalid");
    typed.points.value = "";
    map.fitBounds(drawn.getBounds(), { padding: [20, 20], maxZoom: 20 });
  }
  if (typed.add && editable) {
    typed.add.addEventListener("click", addTyped);
    typed.points.addEventListener("keydown", function (event) {  // Enter adds the feature, never files the form
      if (event.key === "Enter") { event.preventDefault(); addTyped(); }
    });
  }

  map.on("pm:remove", function (event) { drawn.removeLayer(event.layer); write(); });
})();
