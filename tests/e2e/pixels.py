"""Colours as the page draws them, read from a screenshot's pixels.

For each button's box, shrunk by `INSET_PX` on every side (which leaves out a 48-px
stadium's outline and its rounded corners: a point 8 px in from both edges of a 24-px
radius corner lies inside the outline), every pixel colour is counted. The background is
the commonest colour; the label's colour is, among the colours covering at least
`MIN_PIXELS` device pixels, the one that contrasts most with the background: the solid
core of the glyph strokes (anti-aliased edges blend towards the background, so they
contrast less; a colour seen on fewer pixels is noise). Screenshots are taken at a device
scale of 2, where the strokes of 13–16 px text have solid cores. The contrast ratio is
WCAG 2's: (L1 + 0.05) / (L2 + 0.05) of the relative luminances.

The pixels are counted by the browser (a canvas in a blank page of its own), not in Python:
no imaging library is needed and a screenshot is read in milliseconds.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from typing import Any

from watch import Button

INSET_PX = 8
MIN_PIXELS = 4

_MEASURE_JS = """async ({png, boxes, scale, inset, minPixels}) => {
    const image = new Image();
    image.src = "data:image/png;base64," + png;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext("2d", {willReadFrequently: true});
    context.drawImage(image, 0, 0);
    const channel = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
    const luminance = (k) => 0.2126 * channel(k >> 16) + 0.7152 * channel((k >> 8) & 255) + 0.0722 * channel(k & 255);
    const ratio = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    return boxes.map((box) => {
        const x = Math.round((box.x + inset) * scale), y = Math.round((box.y + inset) * scale);
        const w = Math.round((box.width - 2 * inset) * scale), h = Math.round((box.height - 2 * inset) * scale);
        if (w < 2 || h < 2 || x < 0 || y < 0 || x + w > canvas.width || y + h > canvas.height) return null;
        const data = context.getImageData(x, y, w, h).data;
        const counts = new Map();
        for (let i = 0; i < data.length; i += 4) {
            const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
            counts.set(key, (counts.get(key) || 0) + 1);
        }
        let background = 0, most = 0;
        for (const [key, n] of counts) if (n > most) { most = n; background = key; }
        const lb = luminance(background);
        let label = background, best = 1;
        for (const [key, n] of counts) {
            if (n < minPixels) continue;
            const r = ratio(luminance(key), lb);
            if (r > best) { best = r; label = key; }
        }
        return {background, label, ratio: best};
    });
}"""


@dataclass(frozen=True)
class Contrast:
    button: Button
    label: str  # the label's colour, #rrggbb
    background: str
    ratio: float

    def __str__(self) -> str:
        return f"{self.button.name()} {self.ratio:.2f}:1 ({self.label} on {self.background})"


def hex_colour(key: int) -> str:
    return f"#{key:06x}"


def measure(analyser: Any, png: bytes, buttons: list[Button], scale: float) -> list[Contrast]:
    """The label contrast of each button as drawn in the screenshot `png` (taken at `scale`),
    counted in `analyser`, a blank Playwright page."""
    boxes = [{"x": b.x, "y": b.y, "width": b.width, "height": b.height} for b in buttons]
    found = analyser.evaluate(
        _MEASURE_JS,
        {
            "png": base64.b64encode(png).decode(),
            "boxes": boxes,
            "scale": scale,
            "inset": INSET_PX,
            "minPixels": MIN_PIXELS,
        },
    )
    return [
        Contrast(button, hex_colour(seen["label"]), hex_colour(seen["background"]), seen["ratio"])
        for button, seen in zip(buttons, found, strict=True)
        if seen is not None
    ]


@dataclass(frozen=True)
class Shot:
    png: bytes  # at the page's device scale, to measure
    small: bytes  # at one pixel per CSS pixel: to tell whether the drawing changed, quickly


def still_screenshot(page: Any, *, unlike: Shot | None = None, timeout_s: float = 8.0) -> Shot:
    """A screenshot once painting has caught up and stopped: unlike `unlike` (what was drawn
    before the change being looked at) and the same in two shots 150 ms apart. The canvas
    can lag the semantics tree (a sheet's opening, a new screen's first frame, an ink
    ripple are drawn with no DOM change to wait for). The shots compared are small ones."""
    deadline = time.monotonic() + timeout_s
    small = page.screenshot(scale="css")
    while time.monotonic() < deadline:
        page.wait_for_timeout(150)
        again = page.screenshot(scale="css")
        if again == small and (unlike is None or again != unlike.small):
            return Shot(page.screenshot(), again)
        small = again
    raise AssertionError("the page did not stop painting (or never painted the change) in time")
