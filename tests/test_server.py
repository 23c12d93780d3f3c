"""The fixture server: a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import pytest
import requests

from webbot.errors import WebbotError
from webbot.server import FixtureServer, fixtures_root


def test_serves_the_bundled_fixtures_on_loopback():
    with FixtureServer() as server:
        assert server.url.startswith("http://127.0.0.1:")
        response = requests.get(server.url + "index.html", timeout=5)
        assert response.status_code == 200
        assert "<h1>webbot</h1>" in response.text
        assert requests.get(server.url + "missing.html", timeout=5).status_code == 404
    with pytest.raises(requests.ConnectionError):
        requests.get(server.url, timeout=2)


def test_two_servers_get_two_free_ports(tmp_path):
    (tmp_path / "a.txt").write_text("hello")
    with FixtureServer(tmp_path) as one, FixtureServer(tmp_path) as two:
        assert one.url != two.url
        assert requests.get(two.url + "a.txt", timeout=5).text == "hello"


def test_busy_port_is_a_clear_error():
    with FixtureServer() as server:
        port = int(server.url.rsplit(":", 1)[1].strip("/"))
        with pytest.raises(WebbotError, match=f"cannot listen on 127.0.0.1:{port}"):
            FixtureServer(port=port)


def test_fixtures_root_can_be_overridden(tmp_path, monkeypatch):
    monkeypatch.setenv("WEBBOT_FIXTURES", str(tmp_path))
    assert fixtures_root() == tmp_path
