// The settings Flet writes into its page as inline scripts, kept in a file of their own so
// the Content-Security-Policy can forbid inline scripts. Values are those Flet writes for
// this app: served at "/", socket at "/ws", nothing from a CDN (tests/test_web.py checks).

// Reload when WebKit restores the page from the back/forward cache instead of resuming
// it: Flutter's frames stop rendering after such a restore (Flet's own page does the same).
window.addEventListener('pageshow', (event) => {
  if (event.persisted && navigator.vendor && navigator.vendor.startsWith('Apple')) {
    window.location.reload();
  }
});

// A socket that drops and comes back (a phone woke up, Wi-Fi blinked, the server restarted)
// reloads the page once the server answers again, instead of letting Flet's client resume
// in place. Flet 1.0.5's client merges the page the server sends on reconnecting into the
// controls it still holds: every list becomes new controls the widgets on screen no longer
// follow (taps are recorded, the screen stops changing), and an open sheet loses its
// client-side `_open` mark, is shown a second time, and can no longer be closed (flet:
// packages/flet/lib/src/models/control.dart `_mergeMaps`, controls/alert_dialog.dart).
// A reload starts the client afresh on the same session (its id is kept in
// sessionStorage), so the screen comes back exactly as the server has it, sheet included.
(() => {
  const Native = window.WebSocket;
  let leaving = false;
  let reloading = false;
  window.addEventListener('pagehide', () => { leaving = true; });
  const reloadWhenBack = () => {
    if (reloading || leaving) return;
    reloading = true;
    const attempt = () => fetch('/', { cache: 'no-store' })
      .then((answer) => { if (answer.ok) window.location.reload(); else throw answer.status; })
      .catch(() => setTimeout(attempt, 1000));
    attempt();
  };
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      let opened = false;
      this.addEventListener('open', () => { opened = true; });
      this.addEventListener('close', () => { if (opened) reloadWhenBack(); });
    }
  };
})();

var flet = {
  pyodide: false,
  multiView: false,
  noCdn: true,
  webSocketEndpoint: "/ws",
  entrypointBaseUrl: "/",
  assetBase: "/",
  routeUrlStrategy: "path",
  canvasKitBaseUrl: "/canvaskit/",
  pyodideUrl: "/pyodide/pyodide.mjs",
  webRenderer: "auto",
  fontFallbackBaseUrl: "assets/fonts/",
  appPackageUrl: "app.tar.gz"
};

flet.flutterAppLoaded = new Promise((resolve) => {
  flet.flutterAppResolve = resolve;
});
