"""Writes tests/fixtures/official: a tiny synthetic dataset in the official IWR-Bench layout.

data.jsonl + data/<id>/{video.mp4, assets/, stitched_assets/, checkpoints/, metadata.json}.
Run once; the output (a few KB) is committed because tests need it.
"""

import json
import sys
from pathlib import Path

import av
from PIL import Image, ImageDraw

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/official")
W, H = 320, 180


def shot(text: str, color: str) -> Image.Image:
    im = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, W, 30], fill=color)
    d.text((10, 50), text, fill="black")
    return im


def video(path: Path, frames: list[Image.Image], fps: int = 2) -> None:
    c = av.open(str(path), "w")
    s = c.add_stream("libx264", rate=fps)
    s.width, s.height, s.pix_fmt = W, H, "yuv420p"
    for im in frames:
        for p in s.encode(av.VideoFrame.from_image(im)):
            c.mux(p)
    for p in s.encode():
        c.mux(p)
    c.close()


tasks = [
    {"id": "demo_counter", "classification": {"interaction_complexity": "L2", "visual_complexity": "V1",
                                                 "domain": "Utility", "sub_domain": "Counter"},
     "recording_details": {"environment": "Chrome"}, "source_website": "synthetic",
     "action_sequence": [
         {"type": "Click", "parameters": {"description": "the '+' button"}, "visual_evaluation_flag": True,
          "checkpoint_screenshot": "checkpoints/step_1.png", "logical_assertion": "The counter shows 1"},
         {"type": "Scroll", "parameters": {"description": "scroll down", "direction": "DOWN", "scroll_page": 0.5},
          "visual_evaluation_flag": False, "checkpoint_screenshot": "checkpoints/step_2.png", "logical_assertion": None}]},
    {"id": "demo_search", "classification": {"interaction_complexity": "L3", "visual_complexity": "V2",
                                                "domain": "E-commerce", "sub_domain": "Search"},
     "recording_details": {"resolution": "320x180"}, "source_website": "synthetic",
     "action_sequence": [
         {"type": "Type", "parameters": {"description": "the search box", "text": "shoes"},
          "visual_evaluation_flag": True, "checkpoint_screenshot": "checkpoints/step_1.png", "logical_assertion": ""},
         {"type": "Press", "parameters": {"description": "press Enter", "key": "Enter"},
          "visual_evaluation_flag": True, "checkpoint_screenshot": "checkpoints/step_2.png",
          "logical_assertion": "Results for shoes are shown", "extra_field_kept": 1}]},
]
OUT.mkdir(parents=True, exist_ok=True)
with open(OUT / "data.jsonl", "w") as f:
    for t in tasks:
        f.write(json.dumps(t) + "\n")
        d = OUT / "data" / t["id"]
        (d / "checkpoints").mkdir(parents=True, exist_ok=True)
        (d / "assets").mkdir(exist_ok=True)
        (d / "stitched_assets").mkdir(exist_ok=True)
        frames = [shot(f"{t['id']} state {i}", c) for i, c in enumerate(["#36c", "#3a6", "#c63"])]
        for i, im in enumerate(frames):
            im.save(d / "checkpoints" / f"step_{i}.png", optimize=True)
        video(d / "video.mp4", frames)
        Image.new("RGB", (16, 16), "#e33").save(d / "assets" / "asset001.png")
        shot("asset001.png", "#999").save(d / "stitched_assets" / "stitched_image_1.png", optimize=True)
    (OUT / "data" / "demo_counter" / "metadata.json").write_text(json.dumps({"recording_details": {"resolution": "320x180"}}))
print("wrote", OUT)
