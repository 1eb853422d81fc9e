"""Keep the catalogues in step with the English templates in code (needs Babel, a dev dependency).

    python -m companion.text.locale.catalogues           # update every .po from the code, compile every .mo
    python -m companion.text.locale.catalogues --check   # exit 1 when a .po or .mo is behind the code

Every registered English template becomes one entry: context = the message id, msgid =
the English text. An entry whose English changed comes back empty (its old translation
is dropped), so it shows in English until translated again; ids no longer in code go.
To add a language: create `<code>/LC_MESSAGES/companion.po` with a header (copy French's
and change Language and Plural-Forms), run this, translate every entry, run it again, and
add the code to `companion.text.messages.LANGUAGES`.
"""

from __future__ import annotations

import copy
import importlib
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

HERE = Path(__file__).parent
TRANSLATED = ("fr", "es")


def register_all() -> None:
    """Import every module of the package that registers English templates."""
    package = HERE.parents[1]  # companion/, whose modules register templates
    for path in sorted(package.rglob("*.py")):
        if path.name != "messages.py" and "register(" in path.read_text(encoding="utf-8"):
            module = ".".join(("companion", *path.relative_to(package).with_suffix("").parts))
            importlib.import_module(module.removesuffix(".__init__"))


def english() -> Catalog:
    """Every English template the app registers, as a gettext template."""
    from companion.text.messages import package_templates

    register_all()
    template = Catalog(project="Companion", fuzzy=False)
    for message_id, text in sorted(package_templates().items()):
        template.add(text, context=message_id)
    return template


def po_path(language: str) -> Path:
    return HERE / language / "LC_MESSAGES" / "companion.po"


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as stream:
        return read_po(stream, locale=language)


def updated(language: str, template: Catalog) -> bytes:
    catalog = read(language)
    # Babel's update hands the template's own entries to the catalogue: a copy keeps
    # one language's strings out of the next.
    catalog.update(copy.deepcopy(template), no_fuzzy_matching=True, update_creation_date=False)
    return po_bytes(catalog)


def po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, no_location=True, ignore_obsolete=True)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def main(argv: list[str]) -> int:
    check = "--check" in argv
    template = english()
    behind = []
    for language in TRANSLATED:
        po = updated(language, template)
        if po != po_path(language).read_bytes():
            behind.append(str(po_path(language)))
            if not check:
                po_path(language).write_bytes(po)
        mo = mo_bytes(read_po(io.BytesIO(po), locale=language))
        mo_path = po_path(language).with_suffix(".mo")
        if not mo_path.is_file() or mo != mo_path.read_bytes():
            behind.append(str(mo_path))
            if not check:
                mo_path.write_bytes(mo)
    if check and behind:
        print("behind the code:", *behind, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
