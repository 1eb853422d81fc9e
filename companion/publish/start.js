// Companion's phone build: ask the browser to keep the games, cache the app for offline
// use (service-worker.js), then start Flutter (flutter_bootstrap.js) from that cache.
(function () {
  "use strict";
  let started = false;

  function start() {
    if (started) return;
    started = true;
    startPython();
    const script = document.createElement("script");
    script.src = "flutter_bootstrap.js";
    script.async = true;
    document.body.appendChild(script);
  }

  // python.js starts Python (Pyodide, then the app) only once Flutter has loaded and asks
  // for it; started here, both load at once, and Flutter's ask gets the running worker.
  // The worker is companion-worker.js, which starts sooner than flet-web's (said there).
  function startPython() {
    if (typeof flet !== "object" || !flet.pyodide || typeof jsConnect !== "function" ||
        typeof _apps !== "object") return;  // another python.js than this build's: left as it is
    const worker = new Worker("companion-worker.js", { type: "module" });
    const early = [];  // what Python says before Flutter listens (its prints)
    let said = null;
    let heard = () => {};
    const ready = new Promise((resolve) => { heard = resolve; });
    let listener = (message) => early.push(message);
    worker.onmessage = (event) => {
      if (typeof event.data === "string") {
        said = event.data;
        heard();
      } else {
        listener(event.data);
      }
    };
    worker.postMessage({
      pyodideUrl: flet.pyodideUrl, args: {}, documentUrl: document.URL, appPackageUrl: flet.appPackageUrl,
      micropipIncludePre: flet.micropipIncludePre, pythonModuleName: flet.pythonModuleName,
    });
    const connect = jsConnect;
    let taken = false;
    globalThis.jsConnect = async function (appId, args, dartOnMessage) {
      if (taken || Object.keys(args || {}).length) return connect(appId, args, dartOnMessage);
      taken = true;
      _apps[appId] = { dartOnMessage: dartOnMessage, worker: worker };
      listener = dartOnMessage;
      early.splice(0).forEach((message) => dartOnMessage(message));
      await ready;
      const [word, how] = said.split(":");
      if (word !== "initialized" || !how) {
        console.error("Python worker init error:", said);
        await jsDisconnect(appId);
        throw said;
      }
      globalThis.companionPython = how;  // "snapshot" or "fresh", for whoever looks (a test)
      if (how === "fresh" && typeof caches === "object") {
        setTimeout(makeSnapshot, SNAPSHOT_AFTER_MS);  // kept there; then the rest of the app cached
      } else {
        setTimeout(cacheTheRest, SNAPSHOT_AFTER_MS);
      }
      lookForNewBuild();
    };
  }

  // The next start restores Python from a snapshot (companion-worker.js): made in a worker
  // of its own once this page is up, so that it costs the first visit nothing.
  const SNAPSHOT_AFTER_MS = 2000;

  function makeSnapshot() {
    const maker = new Worker("companion-worker.js", { type: "module" });
    const done = (said) => {  // "kept", or why not (the next normal start makes one)
      globalThis.companionSnapshot = said;
      if (said !== "kept") console.warn("Companion: no snapshot:", said);
      maker.terminate();
      cacheTheRest();
    };
    maker.onmessage = (event) => done(String(event.data).replace(/^snapshot:/, ""));
    maker.onerror = (error) => done(String(error.message || "its worker failed"));
    maker.postMessage({ snapshot: true, pyodideUrl: flet.pyodideUrl, appPackageUrl: flet.appPackageUrl,
                        pythonModuleName: flet.pythonModuleName });
  }

  // A first visit caches the app but its fallback fonts (emoji, CJK), which nothing on the
  // first screens needs: the service worker gets them once the app is up and its snapshot
  // made (not to slow either), so that it then runs offline whatever names it shows. Asked
  // at every start (a first visit may have been closed before); answered at once when done.
  function cacheTheRest() {
    const controller = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (controller) controller.postMessage({ type: "companion-cache-all" });
  }

  // A phone keeps the app open for days, and the browser looks for a new build only when
  // a page is opened: so the page also asks once Python is running (its start's downloads
  // done) and each time the phone shows the app again.
  function lookForNewBuild() {
    const workers = navigator.serviceWorker;
    if (!workers) return;
    const look = () => workers.getRegistration().then((registration) => registration && registration.update())
      .catch(() => {});  // offline, or the host away: the next look will do
    setTimeout(look, 1000);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") look();
    });
  }

  // Saved games live in IndexedDB; without this a browser short of space may clear them.
  // Not awaited: some browsers ask the user. Settings says what the browser decided.
  if (navigator.storage && navigator.storage.persist) {
    navigator.storage.persist().catch(() => {});
  }

  const workers = navigator.serviceWorker;
  if (!workers) {  // not a secure context (plain http): the app runs, but not offline
    start();
    return;
  }
  if (workers.controller) {  // cached already: start at once; a new build installs meanwhile
    start();
  }

  // Only numbers, so no language is needed: "12.3 / 28.0 MB" while the first visit downloads.
  workers.onmessage = (event) => {
    const progress = document.getElementById("loading-progress");
    const data = event.data || {};
    if (data.type === "companion-update-failed") {  // kept for whoever looks (a test, the console)
      globalThis.companionUpdateFailed = data.reason;
      console.warn("Companion: the new build was not cached:", data.reason);
    }
    if (data.type === "companion-offline") {  // all of the app cached: "ready", or why not (a test looks)
      globalThis.companionOffline = data.ready ? "ready" : data.reason;
      if (!data.ready) console.warn("Companion: not all of the app is cached yet:", data.reason);
    }
    if (progress && data.type === "companion-progress" && !started) {
      progress.textContent = `${(data.done / 1e6).toFixed(1)} / ${(data.total / 1e6).toFixed(1)} MB`;
    }
  };

  workers.register("service-worker.js", { updateViaCache: "none" }).then((registration) => {
    if (started) return;
    const installing = registration.installing || registration.waiting;
    if (!installing) {  // active, yet this page is not controlled (a forced reload): from the network
      start();
      return;
    }
    workers.addEventListener("controllerchange", start, { once: true });
    installing.addEventListener("statechange", () => {
      if (installing.state === "redundant") start();  // the download failed: run online this time
    });
  }, (error) => {
    console.warn("Companion: no offline copy:", error);
    start();
  });
})();
