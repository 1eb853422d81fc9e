"""The live table: what one tap on the host costs the server with 1, 3 and 6 phones following.

    python tests/bench/table.py [taps]

`companion --web --share` is started as a user starts it, sharing a Heartland game; each
phone joins with the code (from an address of its own on loopback) and registers over a
real WebSocket as the Flutter client does, and so does the host's page. The host taps a
move, then Undo, `taps` times in all; for each tap the bench notes when the host's own
patch and each phone's patch arrive, and reads the server process's CPU time from /proc.

Printed per number of phones: the server's CPU per tap (mean over the run), the time from the tap to
the slowest phone's patch (median and p95), and the bytes a phone is sent per tap. Goals
(issue "the costs nobody timed"): CPU per tap <= 16 ms with 6 phones, slowest phone <= 150 ms.
Figures, not assertions; they swing with the machine's load.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

import msgpack
import websockets

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.app.data import AppData  # noqa: E402
from companion.store import Store  # noqa: E402

LAN_HOST = "127.0.0.2"
TICK_S = 1 / os.sysconf("SC_CLK_TCK")
REGISTER, PATCH, EVENT = 1, 2, 3


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * TICK_S  # utime + stime


def seed(folder: Path) -> None:
    """A Heartland game left open, as `companion --share` shares the game last open."""
    data = AppData(Store(folder))
    session = data.new("heartland", ["Ann", "Bob", "Cid", "Dee"], {})
    assert session.id is not None
    for _ in range(10):
        player = session.state.current_player
        session.apply({"type": "move", "player": player, "spaces": 1, "pay": "fuel"})
        session.apply({"type": "discard", "player": player, "forced": False})
        session.apply({"type": "end_turn", "player": player})
    data.remember_screen(session.id)
    data.close_session(session.id)


def join(port: int, code: str, address: str) -> str:
    connection = http.client.HTTPConnection(LAN_HOST, port, timeout=10, source_address=(address, 0))
    try:
        connection.request(
            "POST",
            "/join",
            urllib.parse.urlencode({"code": code, "name": f"Phone {address}"}),
            {
                "Host": f"{LAN_HOST}:{port}",
                "Origin": f"http://{LAN_HOST}:{port}",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 303, answer.status
        return "; ".join(value.split(";", 1)[0] for name, value in answer.getheaders() if name.lower() == "set-cookie")
    finally:
        connection.close()


def keyed_ids(value: Any, found: dict[str, int]) -> None:
    """Every control id in an encoded message, by its `key`."""
    if isinstance(value, dict):
        if isinstance(value.get("key"), str) and isinstance(value.get("_i"), int):
            found[value["key"]] = value["_i"]
        for item in value.values():
            keyed_ids(item, found)
    elif isinstance(value, list):
        for item in value:
            keyed_ids(item, found)


class Page:
    """A page over a real socket, registered as the Flutter client registers."""

    def __init__(self, url: str, origin: str, cookie: str = "") -> None:
        self.url, self.origin, self.cookie = url, origin, cookie
        self.socket: Any = None
        self.ids: dict[str, int] = {}
        self.patches: list[tuple[float, int]] = []  # (when, bytes)
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        self.socket = await websockets.connect(
            self.url,
            origin=websockets.Origin(self.origin),
            max_size=None,
            additional_headers={"Cookie": self.cookie} if self.cookie else None,
        )
        register = {
            "session_id": "",
            "page_name": "",
            "page": {"route": "/", "width": 412, "height": 915, "platform": "android", "web": True},
        }
        await self.socket.send(b"\x00" + msgpack.packb([REGISTER, register]))
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for frame in self.socket:
                message = msgpack.unpackb(frame[1:], strict_map_key=False)
                keyed_ids(message, self.ids)
                if message[0] == PATCH:
                    self.patches.append((time.perf_counter(), len(frame)))

    async def tap(self, key: str) -> None:
        await self.socket.send(
            b"\x00" + msgpack.packb([EVENT, {"target": self.ids[key], "name": "click", "data": None}])
        )

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        with contextlib.suppress(Exception):
            await self.socket.close()


async def settle(pages: list[Page], quiet_s: float = 0.4) -> None:
    """Until no page has been sent anything for `quiet_s`."""
    while True:
        counts = [len(page.patches) for page in pages]
        await asyncio.sleep(quiet_s)
        if counts == [len(page.patches) for page in pages]:
            return


async def run(phones: int, taps: int, folder: Path) -> dict[str, float]:
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "--web",
            "--share",
            "--share-host",
            LAN_HOST,
            "--port",
            str(port),
            "--data",
            str(folder),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        code = ""
        assert server.stdout is not None
        for line in server.stdout:
            match = re.search(r"\(code ([A-Z0-9]{4})-([A-Z0-9]{4})\)", line)
            if match:
                code = match.group(1) + match.group(2)
                break
        host = Page(f"ws://127.0.0.1:{port}/ws", f"http://127.0.0.1:{port}")
        await host.open()
        viewers = [
            Page(f"ws://{LAN_HOST}:{port}/ws", f"http://{LAN_HOST}:{port}", join(port, code, f"127.0.0.{3 + number}"))
            for number in range(phones)
        ]
        for viewer in viewers:
            await viewer.open()
        pages = [host, *viewers]
        await settle(pages, 1.0)
        slowest: list[float] = []
        phone_bytes: list[int] = []
        # /proc counts CPU in 10 ms ticks: the whole run's CPU over its taps, not a median of ticks
        cpu_before = cpu_s(server.pid)
        for number in range(taps):
            await settle(pages)
            marks = [len(page.patches) for page in pages]
            started = time.perf_counter()
            await host.tap("move-fuel-1" if number % 2 == 0 else "undo")
            await settle(pages)
            arrivals = [
                page.patches[mark][0] - started
                for page, mark in zip(viewers, marks[1:], strict=True)
                if len(page.patches) > mark
            ]
            if arrivals:
                slowest.append(max(arrivals) * 1000)
            phone_bytes.extend(
                sum(size for _, size in page.patches[mark:]) for page, mark in zip(viewers, marks[1:], strict=True)
            )
        cpu_per_tap = (cpu_s(server.pid) - cpu_before) * 1000 / taps
        for page in pages:
            await page.close()
        return {
            "cpu": cpu_per_tap,
            "slowest": statistics.median(slowest) if slowest else 0.0,
            "slowest_p95": sorted(slowest)[int(len(slowest) * 0.95) - 1] if slowest else 0.0,
            "bytes": statistics.median(phone_bytes) if phone_bytes else 0.0,
        }
    finally:
        server.terminate()
        server.wait(10)


def main() -> None:
    taps = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    print(f"{taps} taps on the host (a move, then Undo), per number of phones following:")
    print("phones | server CPU per tap | tap -> slowest phone (median / p95) | bytes to a phone per tap")
    for phones in (1, 3, 6):
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch) / "data"
            seed(folder)
            figures = asyncio.run(run(phones, taps, folder))
        slowest = f"{figures['slowest']:>12.0f} / {figures['slowest_p95']:.0f} ms"
        print(f"{phones:>6} | {figures['cpu']:>15.1f} ms | {slowest}{'':>13} | {figures['bytes'] / 1024:.1f} KB")
    print("goals: CPU per tap <= 16 ms with 6 phones; the slowest of 6 phones <= 150 ms")


if __name__ == "__main__":
    main()
