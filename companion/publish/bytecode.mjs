// Run by `companion publish` with Node.js: start the site's own Pyodide (the Python 3.14
// the browser will run) and compile bytecode with it (bytecode.py), so the browser does
// not compile the standard library and the app from source at every start.
// node bytecode.mjs <pyodide folder> <folder mounted as /work> <python file>
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pyodideDir, workDir, script] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
pyodide.FS.mkdirTree("/work");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: workDir }, "/work");
pyodide.runPython(readFileSync(script, "utf8"));
