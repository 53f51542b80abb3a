/* The application form's "draw the plot plan on the map" (Leaflet with Geoman). Each shape drawn takes the
   feature chosen in "What you draw next"; the drawing is written, as GeoJSON in longitude and latitude, to
   the plot plan field the form files and the setback check reads. A file, not an inline script (CSP). */
(function () {
  "use strict";
  var element = document.getElementById("plot-map");
  if (!element || !window.L || !L.PM) { return; }
  var settings = JSON.parse(document.getElementById("plot-map-settings").textContent);
  var target = document.getElementById("plot_plan");
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
  map.pm.addControls({ position: "topleft", drawCircle: false, drawCircleMarker: false, drawText: false,
                       cutPolygon: false, rotateMode: false, dragMode: false });
  // Geoman's tool buttons are links with an icon only: each is named by its title, for screen readers.
  element.querySelectorAll(".button-container[title]").forEach(function (container) {
    var button = container.querySelector(".leaflet-buttons-control-button");
    if (button) { button.setAttribute("aria-label", container.getAttribute("title")); }
  });
  var drawn = L.featureGroup().addTo(map);

  function labelOf(value) {
    var option = kind.querySelector("option[value='" + value + "']");
    return option ? option.textContent : value;
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
    target.value = features.length ? JSON.stringify({ type: "FeatureCollection", crs: CRS84, features: features }) : "";
    status.textContent = features.length ? features.length + " feature(s) drawn; check the setbacks below." : "Nothing drawn yet.";
  }

  map.on("pm:create", function (event) {
    var layer = event.layer;
    layer.powtsKind = kind.value;
    map.removeLayer(layer);
    drawn.addLayer(layer);
    layer.bindTooltip(labelOf(kind.value));
    layer.on("pm:edit", write);
    write();
  });
  map.on("pm:remove", function (event) { drawn.removeLayer(event.layer); write(); });
})();
