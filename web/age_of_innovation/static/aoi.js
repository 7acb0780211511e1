// Tapping a hex of the map fills the map editor's row and hex fields.
(function () {
  var map = document.getElementById("map");
  var row = document.getElementById("edit-row");
  var col = document.getElementById("edit-col");
  if (!map || !row || !col) return;
  map.addEventListener("click", function (ev) {
    var g = ev.target.closest ? ev.target.closest("g.hex") : null;
    if (!g) return;
    var old = map.querySelector("g.hex.selected");
    if (old) old.classList.remove("selected");
    g.classList.add("selected");
    row.value = g.getAttribute("data-row");
    col.value = g.getAttribute("data-col");
  });
})();
