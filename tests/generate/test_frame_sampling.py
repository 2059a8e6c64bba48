"""Frame sampling on real videos written with PyAV (frame i encodes i in its colour)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from iwrbench.errors import TaskError
from iwrbench.generate.frames import sample_frames, sample_times, video_info
from fake_provider import frame_index_of, write_video


def indices(frames):
    return [frame_index_of(Image.open(io.BytesIO(f.data))) for f in frames]


def test_one_per_second(task):
    frames = sample_frames(task.video_path, fps=1.0, max_frames=64)
    assert [f.t for f in frames] == [float(i) for i in range(10)]
    assert indices(frames) == list(range(0, 100, 10))
    assert all(f.mime == "image/jpeg" and f.size == (64, 48) for f in frames)
    assert [f.index for f in frames] == list(range(10)) and frames[3].label == "frame 4 (t=3.0s)"


def test_cap_gives_uniformly_spaced_frames(task):
    frames = sample_frames(task.video_path, fps=1.0, max_frames=4)
    assert [f.t for f in frames] == [0.0, 2.5, 5.0, 7.5]
    assert indices(frames) == [0, 25, 50, 75]


def test_other_rates_png_and_downscale(task):
    frames = sample_frames(task.video_path, fps=2.0, max_frames=64, fmt="png", max_image_side=32)
    assert len(frames) == 20 and indices(frames)[:3] == [0, 5, 10]
    assert frames[0].mime == "image/png" and frames[0].size == (32, 24)
    assert Image.open(io.BytesIO(frames[0].data)).size == (32, 24)


def test_a_sparse_video_gives_each_frame_once(tmp_path):
    path = write_video(tmp_path / "slow.mp4", seconds=6, fps=1, size=(32, 32))
    frames = sample_frames(path, fps=4.0, max_frames=64)  # 24 sample times, 6 frames
    assert [f.t for f in frames] == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_sample_times():
    assert sample_times(10.0, 1.0, 64) == [float(i) for i in range(10)]
    assert sample_times(10.05, 1.0, 64)[-1] == 10.0  # the last time may find no frame; it is dropped
    assert sample_times(100.0, 1.0, 4) == [0.0, 25.0, 50.0, 75.0]
    assert sample_times(0.5, 1.0, 64) == [0.0]
    assert sample_times(10.0, 1.0, 0) == []


def test_video_info(task):
    info = video_info(task.video_path)
    assert info.duration_s == pytest.approx(10.0) and (info.width, info.height) == (64, 48)
    assert info.fps == pytest.approx(10.0)


def test_missing_and_corrupt_videos_name_the_file(tmp_path):
    with pytest.raises(TaskError, match="missing.mp4"):
        sample_frames(tmp_path / "missing.mp4")
    bad = tmp_path / "corrupt.mp4"
    bad.write_bytes(b"\x00\x00\x00\x18ftypmp42" + b"garbage" * 100)
    with pytest.raises(TaskError, match="corrupt.mp4"):
        sample_frames(bad)


def test_sample_times_catch_every_cue():
    from iwrbench.generate.frames import ANCHOR_S

    def shown(times, a):
        return any(a - 1e-3 <= t < a + ANCHOR_S for t in times)

    # at 1 fps every cue window (longer than a second) already holds a sample: anchors change nothing
    anchors = [0.35, 2.9, 3.05, 7.99, 10.5]
    assert sample_times(12.0, 1.0, 64, anchors) == sample_times(12.0, 1.0, 64)
    assert all(shown(sample_times(12.0, 1.0, 64), a) for a in anchors)
    # ... except a cue in the video's last second, cut short by its end: it gets a frame of its own
    t = sample_times(12.0, 1.0, 64, [11.5])
    assert len(t) == 13 and shown(t, 11.5) and t[-1] < 12.0
    # capped: every cue still shown, never more than the cap, the first frame kept, times sorted
    for cap in (4, 5, 8):
        t = sample_times(120.0, 1.0, cap, [10.2, 33.3, 90.0])
        assert len(t) == cap and t == sorted(t) and t[0] == 0.0
        assert all(shown(t, a) for a in (10.2, 33.3, 90.0)), (cap, t)
    # a low rate with room left: cues get frames of their own
    t = sample_times(10.0, 0.25, 64, [1.5, 5.5])
    assert all(shown(t, a) for a in (1.5, 5.5)) and len(t) == 3 + 2
    # more cues than frames: as many as fit, nothing dropped below the cap or past the end
    t = sample_times(30.0, 1.0, 2, [5.0, 10.0, 15.0])
    assert len(t) == 2 and t[0] == 0.0 and all(0 <= x < 30 for x in t)
    # anchors outside the video are ignored
    assert sample_times(5.0, 1.0, 64, [-1.0, 9.0]) == sample_times(5.0, 1.0, 64)


def test_the_anchor_window_is_the_cue_length_drawn_on_the_video():
    # frames.ANCHOR_S is a copy (the frame plan does not import the recorder): the two must agree, and a cue
    # must outlast a second so that sampling at 1 fps always catches it
    from iwrbench.generate.frames import ANCHOR_S
    from iwrbench.record.video import CLICK_CUE_S, KEY_CUE_S

    assert ANCHOR_S == CLICK_CUE_S == KEY_CUE_S and ANCHOR_S >= 1.1


def test_a_cue_is_drawn_at_full_strength_wherever_a_sample_that_counts_it_lands():
    # a sample time in [a, a + ANCHOR_S) takes the first video frame at or after it: up to one frame later.
    # The cue drawn on that frame must still be the full ring, not its fading tail (a model would miss it).
    import numpy as np
    from PIL import Image, ImageFont

    from iwrbench.generate.frames import ANCHOR_S
    from iwrbench.record.recorder import FPS
    from iwrbench.record.video import CUE_RGB, Timeline, draw_overlay

    def ring_pixels(age: float) -> int:
        img = Image.new("RGB", (200, 200), (250, 250, 250))
        draw_overlay(img, 10.0 + age, Timeline(clicks=[(10.0, 100.0, 100.0)]), ImageFont.load_default())
        a = np.asarray(img, dtype=np.int16)
        return int((np.abs(a - np.array(CUE_RGB)).max(axis=2) < 30).sum())

    full = ring_pixels(0.5)
    assert full > 200
    latest = ANCHOR_S + 1.0 / FPS - 1e-3  # the last frame a counted sample can land on
    assert ring_pixels(latest) == full
    assert ring_pixels(latest + 1.0) == 0  # and it ends
