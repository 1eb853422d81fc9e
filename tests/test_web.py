"""The web door in-process: who may talk to the server, what it answers, and that the
page it serves is Companion's and needs nothing from the internet.

Most tests go through Starlette's TestClient (no socket); the socket refusals are also
checked against a real uvicorn on a free loopback port, as `companion --web` serves.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flet as ft
import flet_web
import pytest
from flet_web.patch_index import patch_index_html
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from companion.app import web

PORT = 8550
ORIGIN = f"http://127.0.0.1:{PORT}"
WEB_DIR = Path(flet_web.get_package_web_dir())
EVIL = "http://evil.example"
WS = f"ws://127.0.0.1:{PORT}/ws"  # the test client's sockets take their Host from the URL


def main(page: ft.Page) -> None:
    page.add(ft.Text("hello"))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = web.create_app(main, [web.Address("127.0.0.1", PORT)])
    with TestClient(app, base_url=ORIGIN) as test_client:  # sends Host: 127.0.0.1:8550
        yield test_client


# --- who may talk to the server ----------------------------------------------------------------


def test_the_page_is_served_to_its_own_address(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "<title>Companion</title>" in page.text


def test_a_foreign_host_is_refused_for_pages_and_the_socket(client: TestClient) -> None:
    # DNS rebinding: a site's name re-pointed at 127.0.0.1 arrives with its own Host.
    page = client.get("/", headers={"host": f"evil.example:{PORT}"})
    assert page.status_code == 403
    assert page.text == f"This Companion server answers only at {ORIGIN}/."
    assert client.get("/", headers={"host": f"localhost:{PORT + 1}"}).status_code == 403
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"ws://evil.example:{PORT}/ws", headers={"origin": ORIGIN}),
    ):
        pass
    assert refused.value.code == 1008


def test_a_foreign_origin_is_refused_for_pages_and_the_socket(client: TestClient) -> None:
    assert client.get("/", headers={"origin": EVIL}).status_code == 403
    assert client.get("/main.dart.js", headers={"origin": "null"}).status_code == 403
    for origin in (EVIL, f"http://127.0.0.1:{PORT + 1}", "null"):
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(WS, headers={"origin": origin}):
            pass


def test_a_socket_without_an_origin_is_refused(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(WS):
        pass


def test_the_socket_opens_for_the_served_origin(client: TestClient) -> None:
    with client.websocket_connect(WS, headers={"origin": ORIGIN}) as ws:
        assert ws is not None  # accepted: the refusals above are not refusing everything


def test_another_sites_page_cannot_load_our_files_but_can_link_to_the_app(client: TestClient) -> None:
    script = client.get("/flutter_bootstrap.js", headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors"})
    assert script.status_code == 403
    link = client.get("/", headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"})
    assert link.status_code == 200
    own = client.get("/flutter_bootstrap.js", headers={"sec-fetch-site": "same-origin", "sec-fetch-mode": "no-cors"})
    assert own.status_code == 200


def test_another_local_app_is_same_site_and_refused_too(client: TestClient) -> None:
    # Any other server on 127.0.0.1 (another port) is "same-site" to the browser, not
    # "cross-site": its page loading our files or reading our answers must be refused as well.
    for mode in ("no-cors", "cors"):
        answer = client.get("/flutter_bootstrap.js", headers={"sec-fetch-site": "same-site", "sec-fetch-mode": mode})
        assert answer.status_code == 403, mode
        assert "Only pages from" in answer.text
    link = client.get("/", headers={"sec-fetch-site": "same-site", "sec-fetch-mode": "navigate"})
    assert link.status_code == 200


def test_flets_environment_overrides_do_not_move_the_page_or_its_socket(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("FLET_ASSETS_DIR", str(tmp_path))
    monkeypatch.setenv("FLET_WEBSOCKET_HANDLER_ENDPOINT", "elsewhere")
    app = web.create_app(main, [web.Address("127.0.0.1", PORT)])
    with TestClient(app, base_url=ORIGIN) as other:
        assert '<script src="boot.js">' in other.get("/").text
        with other.websocket_connect(WS, headers={"origin": ORIGIN}):
            pass
    assert os.environ["FLET_ASSETS_DIR"] == str(tmp_path)  # put back for whatever else reads it


def test_a_second_address_for_a_local_network_share_is_allowed_too() -> None:
    lan = web.Address("192.168.1.20", PORT)
    app = web.create_app(main, [web.Address("127.0.0.1", PORT), lan])
    with TestClient(app, base_url=lan.origin) as lan_client:
        assert lan_client.get("/", headers={"origin": lan.origin}).status_code == 200
        assert lan_client.get("/", headers={"origin": ORIGIN}).status_code == 200
        assert lan_client.get("/", headers={"origin": EVIL}).status_code == 403
        assert lan_client.get("/", headers={"host": f"192.168.1.21:{PORT}"}).status_code == 403
        assert f"ws://192.168.1.20:{PORT}" in lan_client.get("/").headers["content-security-policy"]


def test_port_80_is_reached_without_a_port_in_host_and_origin() -> None:
    address = web.Address("127.0.0.1", 80)
    assert address.url == "http://127.0.0.1/" and address.origin == "http://127.0.0.1"
    assert address.host_headers() == {"127.0.0.1", "127.0.0.1:80"}


# --- what the server answers ------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect", "/docs/"])
def test_no_api_documentation(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_every_answer_carries_a_policy_allowing_only_the_served_origin(client: TestClient) -> None:
    for path in ("/", "/main.dart.js", "/docs", "/manifest.json", "/some/route"):
        headers = client.get(path).headers
        policy = dict(part.strip().split(" ", 1) for part in headers["content-security-policy"].split(";"))
        assert policy["default-src"] == "'self'"
        assert policy["script-src"] == "'self' 'wasm-unsafe-eval'"  # no inline script, no eval
        assert policy["connect-src"] == f"'self' ws://127.0.0.1:{PORT}"
        assert policy["frame-ancestors"] == "'none'"
        assert all("http" not in value or value.endswith(f"127.0.0.1:{PORT}") for value in policy.values())
        assert "access-control-allow-origin" not in headers  # Flet's "*" is taken out
        assert headers["x-content-type-options"] == "nosniff"
    refused = client.get("/", headers={"origin": EVIL}).headers
    assert "content-security-policy" in refused


def test_the_page_has_no_inline_script(client: TestClient) -> None:
    page = client.get("/").text
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", page, flags=re.S)
    assert scripts, page
    assert all('src="' in attributes and not body.strip() for attributes, body in scripts)


def js_object(source: str) -> dict[str, str]:
    """`name: value` lines of a JavaScript object literal, values as written."""
    match = re.search(r"var flet = \{(.*?)\n\s*\}", source, flags=re.S)
    assert match, source
    return dict(re.findall(r"^\s+(\w+): (.+?),?$", match.group(1), flags=re.M))


def test_the_boot_script_sets_what_flet_writes_into_its_own_page(tmp_path: Path) -> None:
    """companion/assets/boot.js replaces the inline scripts of Flet's page: the same settings."""
    original = (WEB_DIR / "index.html").read_text()
    page = tmp_path / "index.html"
    page.write_text(original)
    patch_index_html(str(page), base_href="", websocket_endpoint_path="/ws", no_cdn=True)
    before, after = original.split("<!-- fletAppConfig -->")
    patched = page.read_text()
    assert patched.startswith(before) and patched.endswith(after)
    injected = patched[len(before) : len(patched) - len(after)]
    expected = js_object(original) | dict(re.findall(r"^flet\.(\w+) ?= ?(.+?);$", injected, flags=re.M))
    assert expected["noCdn"] == "true" and len(expected) >= 12
    assert js_object((web.ASSETS_DIR / "boot.js").read_text()) == expected


def test_the_title_manifest_and_icons_are_companions(client: TestClient) -> None:
    page = client.get("/").text
    assert '<meta name="apple-mobile-web-app-title" content="Companion">' in page
    assert "Flet" not in page
    manifest = client.get("/manifest.json").json()
    assert manifest["name"] == manifest["short_name"] == "Companion"
    assert "Flet" not in json.dumps(manifest)
    for icon in manifest["icons"]:
        served = client.get("/" + icon["src"])
        assert served.status_code == 200 and served.headers["content-type"] == "image/png"
        assert served.content == (web.ASSETS_DIR / icon["src"]).read_bytes()
        assert served.content != (WEB_DIR / icon["src"]).read_bytes()  # not Flet's logo
    for path in ("favicon.png", "icons/apple-touch-icon-192.png", "icons/loading-animation.png"):
        assert client.get("/" + path).content == (web.ASSETS_DIR / path).read_bytes()


@pytest.mark.parametrize("path", ["/main.dart.js", "/main.dart.wasm"])
def test_the_client_loads_nothing_from_a_cdn(client: TestClient, path: str) -> None:
    original = (WEB_DIR / path.lstrip("/")).read_bytes()
    assert web.RIVE_CDN in original  # what this guards against is really in Flet's client
    served = client.get(path)
    assert served.status_code == 200
    assert served.headers["content-type"].startswith(web.PATCHED_CLIENT[path])
    assert b"cdn.jsdelivr.net" not in served.content
    assert len(served.content) == len(original)  # a wasm binary stays valid only at the same length
    assert served.content.count(web.RIVE_LOCAL) == 1
    again = client.get(path, headers={"if-none-match": served.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_the_local_rive_address_answers_not_found(client: TestClient) -> None:
    assert client.get("/" + web.RIVE_LOCAL.decode() + "wasm/rive_native.js").status_code == 404


def fallback_paths(family: str) -> list[str]:
    """The paths Flutter asks for a fallback font family under, as named in the client."""
    client_js = (WEB_DIR / "main.dart.js").read_text()
    return sorted(set(re.findall(rf'"({family}/v\d+/[^"]+\.woff2)"', client_js)))


@pytest.mark.parametrize(
    ("family", "count"),
    [("notosans", 1), ("notocoloremoji", 2), ("notosanssc", 50), ("notosansjp", 50), ("notosanskr", 50)],
)
def test_flutters_fallback_fonts_are_answered_with_shipped_fonts(client: TestClient, family: str, count: int) -> None:
    paths = fallback_paths(family)
    assert len(paths) >= count
    shipped = web.ASSETS_DIR / "fonts" / web.FALLBACK_FONTS[family]
    # Every slice leads to one URL per shipped file, so the browser caches each font once.
    locations = {client.get("/assets/fonts/" + path, follow_redirects=False).headers.get("location") for path in paths}
    assert locations == {f"/fonts/{shipped.name}"}
    assert client.get(f"/fonts/{shipped.name}").content == shipped.read_bytes()


def test_an_unshipped_fallback_font_is_not_found(client: TestClient) -> None:
    (path,) = fallback_paths("notosansarabic")[:1]
    assert client.get("/assets/fonts/" + path).status_code == 404


def test_the_shipped_fonts_stay_small_and_carry_their_licence() -> None:
    fonts = web.ASSETS_DIR / "fonts"
    size = sum(font.stat().st_size for font in fonts.glob("*.woff2"))
    assert size < 15_000_000
    licence = (fonts / "OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert all(font.name in licence for font in fonts.glob("*.woff2"))


# --- the port, and a real uvicorn ---------------------------------------------------------------


def test_a_port_in_use_is_a_sentence() -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        with pytest.raises(web.PortError) as refused:
            web.listen("127.0.0.1", port)
    assert str(refused.value) == (
        f"port {port} is already in use (another Companion, or another program); choose another with --port"
    )


@pytest.fixture(scope="module")
def uvicorn_url() -> Iterator[str]:
    sock = web.listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server: Any = web.server(web.create_app(main, [web.Address("127.0.0.1", port)]))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(200):  # up to ~10 s
            if server.started:
                break
            time.sleep(0.05)
        assert server.started
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()
    assert not thread.is_alive()


def test_uvicorn_refuses_a_foreign_origin_and_host_on_the_socket(uvicorn_url: str) -> None:
    own = f"http://{uvicorn_url}"
    port = int(uvicorn_url.split(":")[1])
    with (
        pytest.raises(InvalidStatus) as refused,
        connect(f"ws://{uvicorn_url}/ws", additional_headers={"Origin": EVIL}, open_timeout=10),
    ):
        pass
    assert refused.value.response.status_code == 403
    # DNS rebinding: a name of another site that now leads to 127.0.0.1.
    with (
        socket.create_connection(("127.0.0.1", port), timeout=10) as sock,
        pytest.raises(InvalidStatus) as refused,
        connect(f"ws://evil.example:{port}/ws", sock=sock, origin=f"http://evil.example:{port}", open_timeout=10),
    ):
        pass
    assert refused.value.response.status_code == 403
    page = urllib.request.urlopen(f"{own}/", timeout=10)
    assert page.status == 200
    page.close()


# --- a picked file comes in as a signed upload -------------------------------------------------


def test_a_picked_file_comes_in_as_one_signed_put_from_the_pages_own_origin(client: TestClient) -> None:
    from flet_web.uploads import build_upload_url  # type: ignore[import-untyped]

    from companion.app import incoming

    signed = build_upload_url(incoming.UPLOAD_PATH, "picked.json", 60, incoming.secret())
    arrived = Path(incoming.folder()) / "picked.json"
    try:
        answer = client.put(signed, content=b'{"format": "companion-archive"}', headers={"origin": ORIGIN})
        assert answer.status_code == 200 and arrived.read_bytes() == b'{"format": "companion-archive"}'
        assert "content-security-policy" in answer.headers
    finally:
        arrived.unlink(missing_ok=True)


def test_an_upload_another_site_asks_for_or_that_is_not_signed_is_refused(client: TestClient) -> None:
    from flet_web.uploads import build_upload_url

    from companion.app import incoming

    signed = build_upload_url(incoming.UPLOAD_PATH, "evil.json", 60, incoming.secret())
    assert client.put(signed, content=b"{}", headers={"origin": EVIL}).status_code == 403
    assert (
        client.put(
            signed, content=b"{}", headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "cors"}
        ).status_code
        == 403
    )
    forged = build_upload_url(incoming.UPLOAD_PATH, "evil.json", 60, "another secret")
    assert client.put(forged, content=b"{}", headers={"origin": ORIGIN}).status_code == 403
    assert client.put("/upload?f=evil.json", content=b"{}", headers={"origin": ORIGIN}).status_code == 400
    assert client.get(signed).status_code == 404  # only a PUT
    assert not (Path(incoming.folder()) / "evil.json").exists()


def test_an_upload_bigger_than_an_archive_may_be_is_refused_and_not_kept(client: TestClient) -> None:
    from flet_web.uploads import build_upload_url

    from companion.aftergame.archive import MAX_IMPORT_BYTES
    from companion.app import incoming

    signed = build_upload_url(incoming.UPLOAD_PATH, "huge.json", 60, incoming.secret())
    answer = client.put(signed, content=b" " * (MAX_IMPORT_BYTES + 1), headers={"origin": ORIGIN})
    assert answer.status_code == 413
    kept = Path(incoming.folder()) / "huge.json"
    assert not kept.exists() or kept.stat().st_size <= MAX_IMPORT_BYTES
    kept.unlink(missing_ok=True)
