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
  map.on("pm:remove", function (event) { drawn.removeLayer(event.layer); write(); });
})();
