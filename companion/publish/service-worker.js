// Companion's offline copy (written by `companion publish`): every file of this build is
// cached when it installs, but for the "lazy" ones (Flutter's two builds, of which a browser
// runs one, and the licence text), cached the first time the page asks for them (the page
// waits for this worker before it starts Flutter); from then on everything is served from
// the cache, with or without a network. At a first install the fallback fonts (emoji, CJK:
// half of the bytes, which Flutter asks for only when a name needs them) come after: the
// page asks for them once the app is up (completeCache). A new build is a new worker
// (BUILD.version is a digest of its files): it downloads only the files that changed, and
// the lazy files this browser had, checks each against its SHA-256, takes over and drops
// the old cache. Saved games are in IndexedDB, not in this cache: updates keep them.
"use strict";

const BUILD = /*BUILD*/{};
const PREFIX = "companion-";
const CACHE = PREFIX + BUILD.version;
const BASE = new URL("./", self.location.href).href;
const LISTED = BASE + "__companion_files__";  // this cache's files and their digests
const PARALLEL = 6;
// The worker Python runs in takes its policy from its script's answer (a static host sends
// none): it may reach this site and the sync server set up in Settings, nothing else. The
// server is kept by Python in a cache of its own (not this build's: an update keeps it).
const WORKER = "companion-worker.js";
const SYNC_CACHE = "companion:sync";
const SYNC_ORIGIN = BASE + "__companion_sync_origin__";
// Flutter asks for a fallback font by its Google Fonts path, one path per slice of it.
const FONT = /^assets\/fonts\/([a-z0-9]+)\/v\d+\/[A-Za-z0-9_.-]+\.woff2$/;
const TYPES = {
  html: "text/html; charset=utf-8", js: "text/javascript", mjs: "text/javascript", json: "application/json",
  wasm: "application/wasm", png: "image/png", woff2: "font/woff2", otf: "font/otf", ttf: "font/ttf",
  gz: "application/gzip", zip: "application/zip", txt: "text/plain; charset=utf-8", bin: "application/octet-stream",
  frag: "application/octet-stream",
};

function typeOf(path) {
  return TYPES[path.split(".").pop()] || "application/octet-stream";
}

self.addEventListener("install", (event) => {
  event.waitUntil(install().then(() => self.skipWaiting(), async (error) => {
    // This build stays unused until the browser's next look for one (the next opening
    // online): the pages are told why, and the games are untouched either way.
    const reason = String(error && error.message || error);
    console.error("Companion: this build could not be cached:", reason);
    await tell({ type: "companion-update-failed", version: BUILD.version, reason });
    throw error;
  }));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(BASE)) return;
  event.respondWith(answer(request));
});

async function answer(request) {
  const url = new URL(request.url);
  let path = url.pathname.slice(new URL(BASE).pathname.length);
  try {
    path = decodeURIComponent(path);
  } catch (error) {  // not an address of this site's files: asked of the host as it is
  }
  const font = FONT.exec(path);
  if (font && BUILD.fonts[font[1]]) path = BUILD.fonts[font[1]];
  if (path.startsWith("no-cdn/")) return new Response("", { status: 404 });  // the client's Rive address
  const cache = await caches.open(CACHE);
  let hit = await cache.match(BASE + path);
  if (!hit && (path === "" || request.mode === "navigate")) hit = await cache.match(BASE + "index.html");
  if (hit) return path === WORKER ? await withPolicy(hit) : hit;
  try {
    const file = FILES.get(path);
    if (!file) return await fetch(request);
    const response = await download(path, file[1], file[3]);
    await cache.put(BASE + path, response.clone());
    return path === WORKER ? await withPolicy(response) : response;
  } catch (error) {
    return new Response("", { status: 504, statusText: "Offline" });
  }
}

async function withPolicy(response) {
  const kept = await (await caches.open(SYNC_CACHE)).match(SYNC_ORIGIN);
  const origin = kept ? (await kept.text()).trim() : "";
  const allowed = /^https?:\/\/[A-Za-z0-9.:\[\]-]+$/.test(origin) ? " " + origin : "";
  const headers = new Headers(response.headers);
  headers.set("Content-Security-Policy", "connect-src 'self'" + allowed);
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
}

const FILES = new Map(BUILD.files.map((file) => [file[0], file]));

const FALLBACK_FONTS = new Set(Object.values(BUILD.fonts));

async function install() {
  const cache = await caches.open(CACHE);
  const { earlier, used, first } = await earlierCopies();
  // A lazy file an earlier build had cached is one this browser runs: an update brings it
  // now, so that the next start works offline. A first visit leaves the fallback fonts to
  // completeCache: nothing shown yet needs them, and the page starts that much sooner.
  const wanted = BUILD.files.filter(([path, , , , later]) => (!later || used.has(path)) &&
    !(first && FALLBACK_FONTS.has(path)));
  const total = wanted.reduce((sum, file) => sum + file[2], 0);
  let done = 0;
  const queue = wanted.slice();
  async function next() {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const [path, digest, size, packed] = file;
      const kept = earlier.get(path + " " + digest);
      await cache.put(BASE + path, kept || await downloadAgain(path, digest, packed));
      done += kept ? 0 : size;
      tell({ type: "companion-progress", done, total });
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, next));
  const listed = Object.fromEntries(BUILD.files.map(([path, digest]) => [path, digest]));
  await cache.put(LISTED, new Response(JSON.stringify(listed), { headers: { "content-type": "application/json" } }));
}

// Every file but the lazy ones in the cache: those missing (a first visit's fallback fonts,
// not yet asked for) downloaded now. The page asks at every start, once the app is up; it
// is told "companion-offline" when all are there (or why not).
let completing = null;

function completeCache() {
  if (!completing) {
    completing = (async () => {
      const cache = await caches.open(CACHE);
      for (const [path, digest, , packed, later] of BUILD.files) {
        if (!later && !await cache.match(BASE + path)) {
          await cache.put(BASE + path, await downloadAgain(path, digest, packed));
        }
      }
    })().finally(() => { completing = null; });
  }
  return completing;
}

self.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "companion-cache-all") return;
  const reply = (message) => event.source && event.source.postMessage(message);
  event.waitUntil(completeCache().then(
    () => reply({ type: "companion-offline", ready: true }),
    (error) => reply({ type: "companion-offline", ready: false, reason: String(error && error.message || error) })));
});

// The files of earlier builds still cached, by "path digest" (an update downloads only what
// changed), the paths among them, and whether this is the first build on this browser.
async function earlierCopies() {
  const earlier = new Map();
  const used = new Set();
  let first = true;
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    first = false;
    const cache = await caches.open(name);
    const listed = await cache.match(LISTED);
    if (!listed) continue;
    for (const [path, digest] of Object.entries(await listed.json())) {
      const response = await cache.match(BASE + path);
      if (response) {
        earlier.set(path + " " + digest, response);
        used.add(path);
      }
    }
  }
  return { earlier, used, first };
}

// A host restarted or a phone changing networks drops a connection now and then: a file is
// asked for again before the whole install gives up.
async function downloadAgain(path, digest, packed, tries = 3) {
  for (let tried = 1; ; tried++) {
    try {
      return await download(path, digest, packed);
    } catch (error) {
      if (tried >= tries) throw error;
      console.warn(`Companion: ${path} again (${error && error.message || error})`);
      await new Promise((resolve) => setTimeout(resolve, 500 * tried));
    }
  }
}

async function download(path, digest, packed) {
  const zipped = packed && typeof DecompressionStream === "function";
  // Not "no-cache": a host that dates files to the second answers "not modified" for a file
  // rebuilt within the second of its last copy, and the old bytes then fail their digest.
  const response = await fetch(BASE + path + (zipped ? ".gz" : ""), { cache: "no-store" });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  let body = new Uint8Array(await response.arrayBuffer());
  if (zipped && body[0] === 0x1f && body[1] === 0x8b) {  // a host may already have unpacked it
    body = new Uint8Array(await new Response(new Blob([body]).stream()
      .pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  }
  if (await hex(body) !== digest) throw new Error(`${path}: not the file of this build (published half-way?)`);
  return new Response(body, { headers: { "content-type": typeOf(path) } });
}

async function hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function tell(message) {
  for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
    client.postMessage(message);
  }
}
