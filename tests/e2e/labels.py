"""What a screen reader says of each control: its name as Flutter's semantics tree gives it
to the browser (the control's own words, its tooltip, its label), read for the layer a user
can reach (the open sheet, else the page).

A control whose name has no word in it ("6", "+", "$4", or nothing) is read as "button" with
a number: its meaning was in the heading above it, which a screen reader moving from control
to control does not say. Two controls of one layer with the same name cannot be told apart
by ear.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from harness import FlutterPage

# Every control of the reachable layer: its role and the name it is read by.
_CONTROLS_JS = """() => {
    const own = (e) => Array.from(e.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent)
        .join(" ").trim();
    const dialog = document.querySelector("flt-semantics[role=alertdialog], flt-semantics[role=dialog]");
    const root = dialog || document;
    const selector = ["button", "checkbox", "radio", "switch", "slider", "tab", "link", "menuitem"]
        .map((role) => `flt-semantics[role=${role}]`).concat(["input", "textarea"]).join(", ");
    return Array.from(root.querySelectorAll(selector)).map((e) => {
        const parent = e.parentElement;
        const tip = parent && parent.getAttribute("aria-label");  // a tooltip labels the node around
        const words = [e.getAttribute("aria-label"), own(e), tip].filter(Boolean).map((w) => w.trim());
        return {role: e.getAttribute("role") || e.tagName.toLowerCase(), name: words.join(" · ").replace(/\\s+/g, " ")};
    });
}"""

WORD = r"[^\W\d_]"  # a letter of any script


def controls(ui: FlutterPage) -> list[dict[str, Any]]:
    return list(ui.page.evaluate(_CONTROLS_JS))


def problems(ui: FlutterPage, where: str) -> list[str]:
    """What a screen reader would get wrong on the reachable layer: controls read with no
    meaning, and names shared by several controls."""
    import re

    found = controls(ui)
    said = []
    for control in found:
        if not re.search(WORD, control["name"]):
            said.append(f"{where}: a {control['role']} read as {control['name']!r}, with no word of its meaning")
    for name, times in Counter(control["name"] for control in found).items():
        if times > 1 and re.search(WORD, name):
            said.append(f"{where}: {times} controls read alike as {name!r}")
    return said
