// The application form's "find the parcel": picking a found parcel fills in its number (and it is not new).
// A file, not an inline script, so the Content-Security-Policy can refuse inline scripts.
(function () {
  var results = document.getElementById("find-parcel-results");
  var target = document.getElementById("parcel_number");
  var isNew = document.getElementById("new_parcel");
  if (!results || !target) return;
  results.addEventListener("click", function (event) {
    var button = event.target.closest("[data-parcel-number]");
    if (!button) return;
    target.value = button.getAttribute("data-parcel-number");
    if (isNew) isNew.checked = false;
    results.innerHTML = "";
    var done = document.createElement("p");
    done.textContent = "Parcel " + target.value + " chosen.";
    results.appendChild(done);
    target.focus();
  });
})();
