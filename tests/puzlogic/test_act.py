import pytest

from webbot.puzlogic.act import BASELINE, Tempo


@pytest.mark.parametrize("options", [{"drags_per_look": 0}, {"drags_per_look": -2},
                                     {"camera": "webp"}, {"camera": "Pulled"}])
def test_a_tempo_that_means_nothing_is_refused(options):
    with pytest.raises(ValueError):
        Tempo(**options)


def test_the_tempos_in_use_are_accepted():
    assert Tempo().drags_per_look is None  # every piece, then one look
    assert BASELINE.drags_per_look == 1
    assert Tempo(drags_per_look=3, camera="png").camera == "png"
