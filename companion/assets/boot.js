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
