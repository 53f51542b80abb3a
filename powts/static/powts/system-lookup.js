// The report form's "find the system by address": picking a found system fills in its id.
// A file, not an inline script, so the Content-Security-Policy can refuse inline scripts.
(function () {
  var results = document.getElementById("find-address-results");
  var target = document.getElementById("id_system_id");
  if (!results || !target) return;
  results.addEventListener("click", function (event) {
    var button = event.target.closest("[data-system-id]");
    if (!button) return;
    target.value = button.getAttribute("data-system-id");
    results.innerHTML = "";
    var done = document.createElement("p");
    done.textContent = "System " + target.value + " chosen.";
    results.appendChild(done);
    target.focus();
  });
})();
