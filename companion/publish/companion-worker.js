// Companion's Python worker (written by `companion publish`; start.js starts it): what
// flet-web's python-worker.js does for this build, with the start's waits taken out.
// Same messages both ways: the page sends the settings first, then Flutter's packets; this
// worker answers "initialized:fresh" or "initialized:snapshot" (or the error, a string),
// then Python's packets.
//
// Why not python-worker.js: it fetches the app only once Pyodide has loaded and unpacks it
// with Python (pyfetch, shutil, zipfile, tempfile imported for it, the bytes copied twice),
// half a second or more of each start before the app's first import; and it checks for
// requirements files this build never has. Here the app's archive downloads (from the
// service worker's cache) while Pyodide loads, and its few stored members are written
// straight into the file system.
//
// A start restores Python from a memory snapshot (Pyodide's `makeMemorySnapshot`, kept in
// the Cache API) when there is one: the interpreter started, the app and the Flet controls
// it names imported, its theme built and its catalogues read, about two of the cached
// start's five seconds on this project's test machine. A start without one is a normal
// start; the page then runs this same script a second time, with `{ snapshot: true }`, once
// the app is up, to make one in the background: the snapshot has to be taken before
// anything touches JavaScript or loads a compiled module (msgpack's, which Flet's browser
// connection imports), as the heap is all it keeps. It holds the digest of the app package
// it was made from, the time zone (Python reads the zone once) and its own digest; any doubt
// (another build, another zone, a damaged copy, Pyodide refusing it) means a normal start.
"use strict";

const flet_js = {};  // the "flet_js" module Flet's PyodideConnection talks through
let started = false;

self.onmessage = (event) => {
  if (!started) {
    started = true;
    const run = event.data && event.data.snapshot ? makeSnapshot : start;
    run(event.data).catch((error) => self.postMessage(String(error && error.stack || error)));
  } else if (typeof flet_js.send === "function") {
    flet_js.send(event.data);
  } else {
    console.error("Companion: a message for Python before it started was dropped");
  }
};

const SNAPSHOTS = "python-snapshot";  // not "companion-": the service worker's clean-up leaves it alone
const snapshotAddress = () => new URL(`${SNAPSHOTS}/python`, self.location.href).href;  // one a site
const OPTIONS = { stdout: (text) => console.log(text), stderr: (text) => console.error(text) };

async function start(settings) {
  flet_js.args = settings.args || {};
  flet_js.documentUrl = settings.documentUrl;
  const archive = appPackage(settings);
  const pyodideUrl = new URL(settings.pyodideUrl, self.location.href);
  const { loadPyodide } = await import(pyodideUrl.href);
  let pyodide = await restore(loadPyodide, pyodideUrl, archive);
  const restored = Boolean(pyodide);
  if (!restored) pyodide = await loadPyodide(OPTIONS);
  self.pyodide = pyodide;
  unpackStored(pyodide.FS, new Uint8Array(await archive), pyodide.FS.cwd());
  const entry = settings.pythonModuleName;
  pyodide.runPython(restored ? "import companion.browser\ncompanion.browser.restored()\n"
    : `import ${entry}, companion.browser\ncompanion.browser.prepare()\n`);  // while Flutter loads
  pyodide.registerJsModule("flet_js", flet_js);
  pyodide.registerJsModule("data_folder_js", { persist: (mount, paths) => persist(pyodide.FS, mount, paths) });
  await pyodide.runPythonAsync(`import runpy\nrunpy.run_module(${JSON.stringify(entry)}, run_name='__main__')\n`);
  if (typeof flet_js.start_connection !== "function") {
    self.postMessage("__flet_no_ui__:the app finished without starting Flet");
    return;
  }
  await flet_js.start_connection((message) => {
    const bytes = message.toJs();  // a fresh copy: its buffer can be handed over, not cloned
    self.postMessage(bytes, [bytes.buffer]);
  });
  self.postMessage(restored ? "initialized:snapshot" : "initialized:fresh");  // start.js keeps which
}

// These paths of the folder mounted on IndexedDB copied there, in one transaction: each one
// there stored as IDBFS's own record of it (so FS.syncfs loads it at the next start), each
// one gone deleted. FS.syncfs(false) would compare every file with every record.
function persist(FS, mount, paths) {
  const IDBFS = FS.filesystems.IDBFS;
  return new Promise((resolve, reject) => {
    IDBFS.getDB(mount, (error, db) => {
      if (error) return reject(error);
      let transaction;
      try {
        transaction = db.transaction([IDBFS.DB_STORE_NAME], "readwrite");
      } catch (refused) {  // the database closed, or the browser is clearing it
        return reject(refused);
      }
      transaction.oncomplete = () => resolve();
      transaction.onabort = () => reject(transaction.error || new Error("the copy was aborted"));
      const store = transaction.objectStore(IDBFS.DB_STORE_NAME);
      const failed = (error) => {
        if (!error) return;
        try {
          transaction.abort();
        } catch (done) {  // ended already
        }
        reject(error);
      };
      for (const path of paths) {
        IDBFS.loadLocalEntry(path, (missing, entry) => {
          if (missing) IDBFS.removeRemoteEntry(store, path, failed);
          else IDBFS.storeRemoteEntry(store, path, entry, failed);
        });
      }
    });
  });
}

function appPackage(settings) {
  const archive = fetch(settings.appPackageUrl).then((response) => {
    if (!response.ok) throw new Error(`app package: HTTP ${response.status} ${settings.appPackageUrl}`);
    return response.arrayBuffer();
  });
  archive.catch(() => {});  // said where it is awaited
  return archive;
}

function zone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || String(new Date().getTimezoneOffset());
}

// Pyodide restored from the kept snapshot, or null (none, or not usable: then dropped).
// The snapshot is read and checked while WebAssembly compiles: Pyodide would read it first.
async function restore(loadPyodide, pyodideUrl, archive) {
  let found;
  try {
    found = await (await caches.open(SNAPSHOTS)).match(snapshotAddress());
  } catch (error) {  // no Cache API here (not a secure context)
    return null;
  }
  if (!found) return null;
  const size = Number(found.headers.get("x-size"));
  if (!size || found.headers.get("x-zone") !== zone()) {  // a new zone (a trip): made again
    forgetSnapshot();
    return null;
  }
  const appDigest = archive.then(hex);  // only when there is a snapshot to check it against
  const image = new Uint8Array(size);  // what Pyodide is given, filled while it compiles
  const filled = (async () => {
    const buffer = await found.arrayBuffer();
    if (buffer.byteLength !== size || await hex(buffer) !== found.headers.get("x-sha256")) {
      throw new Error("damaged");
    }
    if (await appDigest !== found.headers.get("x-app")) throw new Error("made by another build");
    image.set(new Uint8Array(buffer));
  })();
  filled.catch(() => {});
  try {
    const create = (await import(new URL("pyodide.asm.mjs", pyodideUrl).href)).default;
    const pyodide = await loadPyodide({
      ...OPTIONS, _loadSnapshot: image,
      // Upstream defect (Pyodide 314.0.7): a snapshot is written into the module's memory
      // as instantiated, whose size is the module's own (the INITIAL_MEMORY it sets is
      // for memories given to the module, and this build makes its own), so any snapshot
      // of a heap that grew fails with "offset is out of bounds": grown here first.
      createPyodideModule: async (settings) => {
        const module = await create(settings);
        await filled;
        if (module.HEAP8.length < size && !module.growMemory(size)) throw new Error("no memory for it");
        return module;
      },
    });
    if (!pyodide.runPython("import sys\n'companion.browser' in sys.modules")) throw new Error("not this app's");
    return pyodide;
  } catch (error) {
    console.warn("Companion: a normal start; the snapshot was not used:", String(error && error.message || error));
    forgetSnapshot();
    return null;
  }
}

function forgetSnapshot() {
  caches.open(SNAPSHOTS).then((cache) => cache.delete(snapshotAddress())).catch(() => {});
}

// Run in a worker of its own, which the page then ends: a Pyodide that never runs the app,
// prepared (companion.browser.prepare) and snapshotted; answers "snapshot:kept" or why not.
async function makeSnapshot(settings) {
  const archive = appPackage(settings);
  const { loadPyodide } = await import(new URL(settings.pyodideUrl, self.location.href).href);
  const pyodide = await loadPyodide({ ...OPTIONS, _makeSnapshot: true });
  const bytes = await archive;
  unpackStored(pyodide.FS, new Uint8Array(bytes), pyodide.FS.cwd());
  const entry = settings.pythonModuleName;
  if (!pyodide.runPython(`import ${entry}, companion.browser\ncompanion.browser.prepare(${entry}.FLET_NAMES)`)) {
    self.postMessage("snapshot:a compiled module was loaded");
    return;
  }
  const made = pyodide.makeMemorySnapshot();
  const headers = { "x-size": String(made.length), "x-sha256": await hex(made), "x-app": await hex(bytes),
                    "x-zone": zone() };
  const cache = await caches.open(SNAPSHOTS);
  await cache.put(snapshotAddress(), new Response(made, { headers }));
  self.postMessage("snapshot:kept");
}

async function hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
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
