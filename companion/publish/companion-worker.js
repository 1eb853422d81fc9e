// Companion's Python worker (written by `companion publish`; start.js starts it): what
// flet-web's python-worker.js does for this build, with the start's waits taken out.
// Same messages both ways: the page sends the settings first, then Flutter's packets; this
// worker answers "initialized" (or the error, a string), then Python's packets.
//
// Why not python-worker.js: it fetches the app only once Pyodide has loaded and unpacks it
// with Python (pyfetch, shutil, zipfile, tempfile imported for it, the bytes copied twice),
// half a second or more of each start before the app's first import; and it checks for
// requirements files this build never has. Here the app's archive downloads (from the
// service worker's cache) while Pyodide loads, and its few stored members are written
// straight into the file system.
"use strict";

const flet_js = {};  // the "flet_js" module Flet's PyodideConnection talks through
let started = false;

self.onmessage = (event) => {
  if (!started) {
    started = true;
    start(event.data).catch((error) => self.postMessage(String(error && error.stack || error)));
  } else if (typeof flet_js.send === "function") {
    flet_js.send(event.data);
  } else {
    console.error("Companion: a message for Python before it started was dropped");
  }
};

async function start(settings) {
  flet_js.args = settings.args || {};
  flet_js.documentUrl = settings.documentUrl;
  const archive = fetch(settings.appPackageUrl).then((response) => {
    if (!response.ok) throw new Error(`app package: HTTP ${response.status} ${settings.appPackageUrl}`);
    return response.arrayBuffer();
  });
  archive.catch(() => {});  // said below, once Pyodide is there to fail after
  const { loadPyodide } = await import(settings.pyodideUrl);
  const pyodide = await loadPyodide({
    stdout: (text) => console.log(text),
    stderr: (text) => console.error(text),
  });
  self.pyodide = pyodide;
  pyodide.registerJsModule("flet_js", flet_js);
  unpackStored(pyodide.FS, new Uint8Array(await archive), pyodide.FS.cwd());
  await pyodide.runPythonAsync(
    "import runpy, sys\n" +
    "sys.path.insert(0, '__pypackages__')\n" +  // the wheels with compiled parts
    "runpy.run_module(" + JSON.stringify(settings.pythonModuleName) + ", run_name='__main__')\n");
  if (typeof flet_js.start_connection !== "function") {
    self.postMessage("__flet_no_ui__:the app finished without starting Flet");
    return;
  }
  await flet_js.start_connection((message) => {
    const bytes = message.toJs();  // a fresh copy: its buffer can be handed over, not cloned
    self.postMessage(bytes, [bytes.buffer]);
  });
  self.postMessage("initialized");
}

// The members of a zip archive written without compression (as `companion publish` writes
// app.zip) into `folder`; anything else is refused rather than half-read.
function unpackStored(FS, bytes, folder) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("app package: not a zip archive");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const names = new TextDecoder();
  for (let index = 0; index < count; index++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("app package: damaged directory");
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const header = view.getUint32(at + 42, true);
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + skip;
    if (name.endsWith("/")) continue;
    if (method !== 0) throw new Error(`app package: ${name} is compressed`);
    if (name.startsWith("/") || name.split("/").includes("..")) throw new Error(`app package: ${name}`);
    const data = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
    const path = folder + "/" + name;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, bytes.subarray(data, data + size));
  }
}
