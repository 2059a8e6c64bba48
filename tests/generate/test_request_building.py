"""What goes into a request: order, image limits, per-model settings, estimates, dry run."""

from __future__ import annotations

import pytest

from iwrbench.errors import ModelError
from iwrbench.generate import (
    build_request,
    describe_inputs,
    describe_options,
    dry_run,
    effective_options,
    format_dry_run,
    load_prompt,
    prompt_sha256,
)
from iwrbench.generate.prompt import image_tokens
from iwrbench.models.base import GenerationOptions
from iwrbench.models.chat import ImagePart, TextPart


def kinds(request):
    return [
        "text" if isinstance(p, TextPart) else ("frame" if p.label.startswith("frame") else "composite")
        for m in request.messages
        for p in m.content
    ]


def test_published_order_and_labels(long_task):
    r = build_request(long_task, GenerationOptions())
    assert kinds(r) == ["text", "composite", "composite"] + ["frame"] * 64
    labels = [p.label for p in r.messages[0].content if isinstance(p, ImagePart)]
    assert labels[:3] == ["stitched_image_1.png", "stitched_image_2.png", "frame 1 (t=0.0s)"]
    assert (r.temperature, r.max_tokens, r.images) == (0.0, 32000, 66)
    text = r.messages[0].content[0].text
    assert "2 asset composite image(s)" in text and "64 frame(s)" in text and "1.25 s" in text
    assert "1280x720" in text and "{{" not in text


def test_frames_are_cut_first_then_composites(long_task):
    assert kinds(build_request(long_task, GenerationOptions(max_images=5))) == ["text", "composite", "composite"] + ["frame"] * 3
    assert kinds(build_request(long_task, GenerationOptions(max_images=1))) == ["text", "composite"]


def test_downscale_applies_to_composites_and_frames(task):
    from io import BytesIO

    from PIL import Image

    r = build_request(task, GenerationOptions(max_image_side=16))
    sizes = [Image.open(BytesIO(p.data)).size for p in r.messages[0].content if isinstance(p, ImagePart)]
    assert sizes[0] == (16, 8) and set(sizes[1:]) == {(16, 12)}


def test_per_model_settings_and_provider_defaults():
    opts = GenerationOptions(extra={
        "max_frames": 32,
        "per_model": {"anthropic:claude-x": {"max_images": 20}, "claude-x": {"max_images": 30, "fps": 2.0}},
    })
    eff = effective_options(opts, "anthropic:claude-x", {"max_image_side": 2000})
    assert (eff.max_frames, eff.max_images, eff.fps, eff.max_image_side) == (32, 20, 2.0, 2000)
    other = effective_options(opts, "openai:gpt-4o")
    assert (other.max_frames, other.max_images, other.max_image_side) == (32, 70, None)
    user_set = effective_options(GenerationOptions(max_image_side=1000), "anthropic:c", {"max_image_side": 2000})
    assert user_set.max_image_side == 1000


def test_describe_inputs_matches_the_request(task, long_task):
    for t in (task, long_task):
        for opts in (GenerationOptions(), GenerationOptions(max_images=9)):
            d = describe_inputs(t, opts)
            r = build_request(t, opts)
            assert d["images"] == r.images and d["composites"] + d["frames"] == r.images
            assert d["est_input_tokens"] > 0


def test_token_estimates():
    assert image_tokens((1920, 1080)) == 85 + 170 * 6  # 1365x768 -> 3x2 tiles
    assert image_tokens((512, 512)) == 85 + 170
    assert image_tokens((1000, 750), "anthropic") == 1000
    assert image_tokens((1920, 1080), "anthropic") == 1600  # capped


def test_prompt_is_versioned_and_hashed():
    p = load_prompt("iwr-v1")
    assert p.sha256 == prompt_sha256() and len(p.sha256) == 64
    assert p.fields == ["frame_interval", "height", "n_composites", "n_frames", "width"]
    for needle in ("__PLACEHOLDER_ASSETS_BASE_DIR__/", '"btn"', "```html", "width and height"):
        assert needle in p.text
    with pytest.raises(ModelError, match="unknown prompt version"):
        load_prompt("nope")
    with pytest.raises(ModelError, match="no value"):
        p.render(n_frames=1)
    d = describe_options(GenerationOptions())
    assert d["prompt_sha256"] == p.sha256 and d["prompt_version"] == "iwr-v1"


def test_dry_run_counts_without_calling(task, long_task, tmp_path):
    opts = GenerationOptions(cache_dir=tmp_path)
    d = dry_run([task, long_task], "openai:gpt-4o", opts)  # no key needed, no server
    assert (d["calls"], d["images"]) == (2, 11 + 66)
    assert d["est_input_tokens"] == sum(p["est_input_tokens"] for p in d["per_task"])
    assert d["est_cost_usd"] == pytest.approx(d["est_input_tokens"] * 2.5e-6, abs=1e-4)
    assert "2 calls, 77 images" in format_dry_run(d)
    a = dry_run([task], "anthropic:unknown-model", opts, check_cache=True)
    assert a["calls"] == 1 and a["cached"] == 0 and a["est_cost_usd"] is None
    assert "cost unknown" in format_dry_run(a)
    assert dry_run([task], "blank", opts)["calls"] == 0


@pytest.mark.parametrize("field, value", [("fps", 0), ("fps", -1.0), ("fps", float("nan")), ("max_frames", -2),
                                          ("max_image_side", 10), ("concurrency", 0), ("temperature", -0.5)])
def test_values_that_cannot_make_sense_are_refused_before_any_request(field, value):
    """`--fps 0` divided by zero; `--fps -1` told the model 'one frame every -1 s'. Made, set or overridden per model,
    such a value is refused with its name."""
    from iwrbench.errors import IwrError
    from iwrbench.models.base import effective_options

    with pytest.raises(IwrError, match=field.replace("_", "-")):
        GenerationOptions(**{field: value})
    o = GenerationOptions()
    with pytest.raises(IwrError):
        setattr(o, field, value)
    with pytest.raises(IwrError):
        effective_options(GenerationOptions(extra={"per_model": {"m": {field: value}}}), "m")
    assert GenerationOptions(max_frames=0, max_images=0).max_frames == 0  # an ablation without frames is allowed


def test_an_export_into_the_same_folder_is_exactly_the_new_request(long_task, tmp_path):
    from iwrbench.errors import IwrError
    from iwrbench.generate.export import export_request

    out = tmp_path / "req"
    export_request(long_task, out)
    assert len(list((out / "images").iterdir())) == 66
    export_request(long_task, out, GenerationOptions(max_frames=3))
    names = sorted(p.name for p in (out / "images").iterdir())
    assert len(names) == 5 and names[0] == "001_stitched_image_1.png"  # nothing left of the first; no '.png.png'
    assert [p.name for p in tmp_path.iterdir()] == ["req"]  # no staging folder left
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    with pytest.raises(IwrError, match="did not write"):
        export_request(long_task, tmp_path / "mine")
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep"
