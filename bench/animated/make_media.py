"""Makes the two media files of bench/animated: an endless 4-frame GIF and a 3-second looping VP8 clip.

    .venv/bin/python bench/animated/make_media.py bench/animated
"""
import sys
from pathlib import Path

import av
import numpy as np
from PIL import Image

out = Path(sys.argv[1])
colours = [(228, 87, 46), (58, 170, 58), (40, 100, 200), (240, 200, 40)]
frames = [Image.new("RGB", (120, 60), c) for c in colours]
frames[0].save(out / "gif" / "site" / "busy.gif", save_all=True, append_images=frames[1:], duration=150, loop=0)

c = av.open(str(out / "video" / "site" / "clip.webm"), "w")
s = c.add_stream("libvpx", rate=25)
s.width, s.height, s.pix_fmt = 160, 90, "yuv420p"
for i in range(75):
    a = np.zeros((90, 160, 3), np.uint8)
    a[:, :] = colours[(i // 10) % 4]
    a[30:60, (i * 2) % 140:(i * 2) % 140 + 20] = 255
    for p in s.encode(av.VideoFrame.from_ndarray(a, format="rgb24")):
        c.mux(p)
for p in s.encode():
    c.mux(p)
c.close()
