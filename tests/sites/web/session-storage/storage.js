"use strict";
const value = new URLSearchParams(location.search).get("set");
if (value) {
  document.cookie = "remembered=" + encodeURIComponent(value) + "; max-age=86400; path=/";
  localStorage.setItem("remembered", value);
}
const cookie = document.cookie.split("; ").find((part) => part.startsWith("remembered="));
document.getElementById("cookie").textContent = cookie ? decodeURIComponent(cookie.split("=")[1]) : "none";
document.getElementById("stored").textContent = localStorage.getItem("remembered") || "none";
