"""The elements that may hold a game, largest first, in every frame and open shadow root."""

from __future__ import annotations

from webbot.finder import candidates
from webbot.game import GameSpec

SPEC = GameSpec("a game", "canvas", lambda candidate: True)
PAGE = """<body style="margin:0">
<canvas id="small" width="160" height="120"></canvas>
<div id="host"></div>
<script>
  const root = document.getElementById('host').attachShadow({mode: 'open'});
  root.innerHTML = '<canvas id="in-shadow" width="400" height="300"></canvas>';
</script>
<canvas id="hidden" width="900" height="600" style="display:none"></canvas>
<iframe srcdoc='<body style="margin:0"><canvas id="in-frame" width="300" height="150"></canvas>'
        style="width:320px; height:170px; border:0"></iframe>
</body>"""


def test_every_frame_and_open_shadow_root_is_looked_in_largest_first(page):
    page.set_content(PAGE)
    page.frames[1].wait_for_selector("#in-frame")

    found = [c.element.get_attribute("id") for c in candidates(page, SPEC)]

    assert found == ["in-shadow", "in-frame", "small"]  # the hidden one has no box
