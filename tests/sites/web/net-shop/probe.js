"use strict";
const params = new URLSearchParams(location.search);
const target = params.get("target");
const popup = params.get("popup");
const status = document.getElementById("status");
if (popup) {
  document.getElementById("new-tab").href = popup;
}
if (params.get("link")) {
  document.getElementById("same-tab").href = params.get("link");
}
document.getElementById("load").addEventListener("click", () => {
  const image = new Image();
  image.onload = () => { status.textContent = "image loaded"; };
  image.onerror = () => { status.textContent = "image failed"; };
  image.src = target;
  fetch(target, { mode: "no-cors" }).then(
    () => { status.dataset.fetch = "answered"; },
    () => { status.dataset.fetch = "failed"; },
  );
});
document.getElementById("open-popup").addEventListener("click", () => {
  window.open(popup, "_blank");
});
