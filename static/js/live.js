// Live updates for the signed-in user's pages, over the per-user WebSocket.
(function () {
  "use strict";
  var status = document.getElementById("live-status");
  var list = document.getElementById("live-events");
  if (!status) { return; }
  var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
  var retryDelay = 1000;

  function setStatus(state, text) {
    status.dataset.state = state;
    status.textContent = "Live updates: " + text;
  }

  function describe(event) {
    switch (event.type) {
      case "device.paired": return "Device paired: " + event.name;
      case "device.revoked": return "Device revoked: " + event.name;
      default: return event.type;
    }
  }

  function connect() {
    var socket = new WebSocket(scheme + window.location.host + "/ws/events/");
    socket.addEventListener("open", function () { retryDelay = 1000; setStatus("open", "connected"); });
    socket.addEventListener("message", function (message) {
      var event;
      try { event = JSON.parse(message.data); } catch (error) { return; }
      if (list) {
        var item = document.createElement("li");
        item.textContent = describe(event);
        list.insertBefore(item, list.firstChild);
      }
    });
    socket.addEventListener("close", function (closing) {
      if (closing.code === 4401) { setStatus("closed", "signed out"); return; }
      setStatus("closed", "reconnecting…");
      window.setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 30000);
    });
  }
  connect();
}());
