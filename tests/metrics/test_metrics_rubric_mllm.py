"""The MLLM rubric judge against a scripted chat client: the request it sends, and how it reads
replies (JSON, fenced JSON, prose) or refuses to (unparseable or out-of-range replies)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from iwrbench.metrics import (
    PROMPT_VERSION,
    JudgedRubricScore,
    MllmRubric,
    RubricParseError,
    acompare,
    parse_rubric_reply,
    prompt_sha256,
    rubric_prompt,
)
from iwrbench.models.chat import ChatClient, ChatReply, ChatRequest, ImagePart, TextPart

# Snapshot of what the judge is told. Changing the template changes this hash: bump the template's
# version (prompts/visual_rubric_vN.txt) instead of editing a published one, then update here.
PROMPT_SHA256 = {"v1": "713c075e1c9b9476fa08e4e817df1827e60ee3d8f34578607d0ea2e8c4fe27d8"}


class ScriptedClient:
    """A chat client that answers with the next scripted reply and keeps the requests."""

    name = "scripted-judge"

    def __init__(self, *replies: str):
        self.replies = list(replies)
        self.requests: list[ChatRequest] = []

    async def complete(self, request: ChatRequest) -> ChatReply:
        self.requests.append(request)
        return ChatReply(text=self.replies.pop(0))


def _img(colour: str) -> Image.Image:
    return Image.new("RGB", (320, 180), colour)


def test_prompt_snapshot():
    assert PROMPT_VERSION == "v1"
    assert prompt_sha256("v1") == PROMPT_SHA256["v1"], "the rubric prompt changed: new version + new snapshot"
    text = rubric_prompt()
    for name, top in (("layout", 10), ("elements", 15), ("content_text", 40), ("style", 15), ("overall", 20)):
        assert f"{name} (0-{top})" in text


async def test_request_holds_prompt_and_both_screenshots_in_order():
    client = ScriptedClient('{"layout": 8, "elements": 12, "content_text": 30, "style": 11, "overall": 15}')
    assert isinstance(client, ChatClient)
    judge = MllmRubric(client)
    gt, gen = _img("white"), _img("black")
    result = await judge.score(gt, gen)
    assert isinstance(result, JudgedRubricScore)
    assert result.score == pytest.approx(76)
    assert result.components == {"layout": 8, "elements": 12, "content_text": 30, "style": 11, "overall": 15}
    assert result.raw.startswith("{")
    (req,) = client.requests
    assert req.temperature == 0.0
    assert req.images == 2
    assert req.meta["prompt_sha256"] == prompt_sha256() and not req.extra  # kept with the run, never sent
    (msg,) = req.messages
    assert msg.role == "user"
    kinds = [type(p).__name__ for p in msg.content]
    assert kinds == ["TextPart", "ImagePart", "TextPart", "ImagePart", "TextPart"]
    ref, cand = [p for p in msg.content if isinstance(p, ImagePart)]
    assert Image.open(io.BytesIO(ref.data)).getpixel((0, 0)) == (255, 255, 255)
    assert Image.open(io.BytesIO(cand.data)).getpixel((0, 0)) == (0, 0, 0)
    assert "Reference screenshot" in msg.content[0].text
    assert "Candidate screenshot" in msg.content[2].text
    # every text part comes from the template
    joined = "\n".join(p.text for p in msg.content if isinstance(p, TextPart))
    assert all(line in rubric_prompt() for line in joined.splitlines())
    assert judge.describe()["prompt_sha256"] == prompt_sha256()


@pytest.mark.parametrize(
    "reply, expected",
    [
        ('```json\n{"layout": 10, "elements": 15, "content_text": 40, "style": 15, "overall": 20}\n```', 100),
        ('Here is my verdict:\n{"scores": {"Layout": "7/10", "Elements": 9, "Content and text": 20, "Style": {"score": 5}, '
         '"Overall impression": 10}, "reason": "close"}', 51),
        ("Layout: 6/10\nElements: 9/15\nContent & text: 30/40\nStyle: 12/15\nOverall: 14/20\nTotal: 71/100", 71),
        ("**Layout** (0-10): 5\n**Elements** (0-15): 5\n**Content and text** (0-40): 5\n**Style** (0-15): 5\n"
         "**Overall** (0-20): 5", 25),
        ('{"layout": 0, "elements": 0, "content_text": 0, "style": 0, "overall": 0, "reason": "blank page"}', 0),
        # a sub-score on another scale is rescaled: 5/10 of 40 = 20
        ('{"layout": 5, "elements": 5, "content_text": "5/10", "style": 5, "overall": 5}', 40),
    ],
)
def test_parses_json_and_prose(reply, expected):
    assert parse_rubric_reply(reply).score == pytest.approx(expected)


@pytest.mark.parametrize(
    "reply, why",
    [
        ("I cannot compare these images.", "no five rubric scores"),
        ("", "no five rubric scores"),
        ('{"layout": 8, "elements": 12, "style": 11, "overall": 15}', "no five rubric scores"),
        ('{"layout": 80, "elements": 12, "content_text": 30, "style": 11, "overall": 15}', "outside 0..10"),
        ('{"layout": -1, "elements": 12, "content_text": 30, "style": 11, "overall": 15}', "outside 0..10"),
    ],
)
def test_unreadable_reply_raises_not_zero(reply, why):
    with pytest.raises(RubricParseError, match=why) as e:
        parse_rubric_reply(reply)
    assert e.value.raw == reply


async def test_unparseable_reply_through_the_judge():
    from iwrbench.errors import JudgeError

    client = ScriptedClient("Sorry, I can't help with that.", "Still no.")
    judge = MllmRubric(client, attempts=2)
    with pytest.raises(JudgeError, match="2 attempt") as e:
        await judge.score(_img("white"), _img("white"))
    assert e.value.raw == "Still no." and len(client.requests) == 2  # asked again, then an error, never a 0


# --------------------------------------------------------------------------- the published prompt (v2)

PUBLISHED_SHA256 = "c6830813c5c2004fd2935bb1e3d24c672acf4c256e29537636ec7345b88c6a5e"


def test_published_prompt_gives_what_the_published_one_gives():
    from iwrbench.metrics import PUBLISHED_PROMPT_VERSION

    assert PUBLISHED_PROMPT_VERSION == "v2"
    assert prompt_sha256("v2") == PUBLISHED_SHA256, "the published rubric prompt changed: new version + snapshot"
    text = rubric_prompt("v2")
    for name, top in (("Layout", 10), ("Elements", 15), ("Content and Text", 40), ("Style", 15), ("Overall", 20)):
        assert f"-{name} ({top} points):" in text
    assert "Score: ${the total}/100" in text and "starts at 0" in text
    # the published prompt does not say which screenshot is which: neither does this one
    assert "first" not in text.lower() and "second" not in text.lower()


async def test_published_request_is_the_text_then_reference_then_candidate():
    from iwrbench.metrics import PUBLISHED_PROMPT_VERSION, PUBLISHED_RUBRIC_MAX_TOKENS

    client = ScriptedClient("Comments:\n-Layout (10 points): close, 8\n\nScore: 71/100")
    judge = MllmRubric(client, prompt_version=PUBLISHED_PROMPT_VERSION, max_tokens=PUBLISHED_RUBRIC_MAX_TOKENS)
    gt, gen = _img("white"), _img("black")
    result = await judge.score(gt, gen)
    assert result.score == 71 and result.components == {}
    (req,) = client.requests
    assert req.temperature == 0.0 and req.max_tokens == 16384
    kinds = [type(p).__name__ for p in req.messages[0].content]
    assert kinds == ["TextPart", "ImagePart", "ImagePart"]
    ref, cand = (Image.open(io.BytesIO(p.data)).convert("RGB") for p in req.messages[0].content[1:])
    assert ref.getpixel((0, 0)) == (255, 255, 255) and cand.getpixel((0, 0)) == (0, 0, 0)


@pytest.mark.parametrize("reply,score", [
    ("Comments: fine\n\nScore: 72/100", 72),
    ("**Score:** 64/100 overall", 64),
    ("score: 85/100", 85),                      # case-insensitive
    ("Score: 150/100", 100),                    # clipped to 0..100
    ("Layout 8/10 ... Score: 3/100 then Score: 90/100", 3),  # the first score line
    ("Score: 85 / 100", None),                  # the published pattern needs n/100 written together
    ("Score:\n64/100", None),                   # ... and on the same line
    ("The pages look alike.", None),
    ("", None),
])
def test_the_score_line_is_read_as_published(reply, score):
    from iwrbench.metrics import parse_score_line

    got = parse_score_line(reply)
    assert (got.score if got is not None else None) == score


async def test_a_reply_without_a_score_line_is_asked_again_and_never_scored_zero():
    from iwrbench.errors import JudgeError
    from iwrbench.metrics import PUBLISHED_PROMPT_VERSION

    client = ScriptedClient("They look alike.", "Score: 58/100")
    judge = MllmRubric(client, prompt_version=PUBLISHED_PROMPT_VERSION, attempts=3)
    assert (await judge.score(_img("white"), _img("white"))).score == 58 and len(client.requests) == 2
    client = ScriptedClient("", "  ", "")
    with pytest.raises(JudgeError, match="empty reply"):
        await MllmRubric(client, prompt_version=PUBLISHED_PROMPT_VERSION, attempts=3).score(_img("white"), _img("white"))
    assert len(client.requests) == 3


async def test_acompare_with_the_judge(tesseract):
    client = ScriptedClient('{"layout": 10, "elements": 15, "content_text": 40, "style": 15, "overall": 20}')
    img = _img("white")
    out = await acompare(img, img.copy(), ocr=tesseract, rubric=MllmRubric(client))
    assert out["high_level"] == pytest.approx(100)
    assert out["high_level_raw"].startswith("{")
    assert out["ocr"] == 1.0 and out["low_level"] == pytest.approx((out["ocr"] + out["visual"]) / 2)
    assert out["components"]["rubric"]["name"] == "mllm-rubric"
