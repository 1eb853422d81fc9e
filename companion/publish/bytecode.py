"""Run inside Pyodide under Node.js by `companion publish` (bytecode.mjs), at build time.

/work/stdlib.zip (the standard library as source) becomes /work/stdlib-compiled.zip, the
same files with each module compiled instead (as zipimport reads them); each module under
/work/zip (the app's companion.zip) gets its compiled file beside it, each under /work/disk (the
app's __pypackages__) its `__pycache__` file. The files are "unchecked": the browser never
compares them with the source.
"""

import importlib.util
import os
import py_compile
import zipfile

BROWSER_HOME = "/home/pyodide/"  # where the browser unpacks the app: the names tracebacks show


def compile_stdlib(source: str, target: str) -> None:
    # Stored, not deflated: reading needs no inflating, and the site's download is gzipped whole.
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as new:
        for info in old.infolist():
            data = old.read(info)
            if not info.filename.endswith(".py"):
                new.writestr(info, data)
                continue
            code = compile(data, info.filename, "exec", dont_inherit=True)
            pyc = importlib._bootstrap_external._code_to_hash_pyc(  # type: ignore[attr-defined]
                code, importlib.util.source_hash(data), checked=False
            )
            new.writestr(zipfile.ZipInfo(info.filename + "c", info.date_time), pyc)


def compile_tree(root: str, shown_as: str, beside: bool) -> None:
    """Every module under `root`: `beside` (module.pyc next to module.py, as zipimport reads
    them) or in `__pycache__` (as the file system's importer reads them)."""
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                py_compile.compile(
                    path,
                    cfile=path + "c" if beside else importlib.util.cache_from_source(path),
                    dfile=shown_as + os.path.relpath(path, root),
                    doraise=True,
                    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
                )


def main() -> None:
    compile_stdlib("/work/stdlib.zip", "/work/stdlib-compiled.zip")
    if os.path.isdir("/work/zip"):
        compile_tree("/work/zip", BROWSER_HOME + "companion.zip/", beside=True)
    if os.path.isdir("/work/disk"):
        compile_tree("/work/disk", BROWSER_HOME + "__pypackages__/", beside=False)


# Pyodide's runPython runs it as __main__; imported (pydoc, a test collector walking the
# package) it does nothing.
if __name__ == "__main__":
    main()
